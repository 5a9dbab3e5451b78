-- scorecard linear model for Disease (positive: 1)
-- dialect: sqlite; reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1.1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT i.*,
    (  -- a NULL input makes the sum NULL
        0
        + 0.7 * i."ExerciseSTDepression"  -- 0.7 x ST depression
        + 1.3 * i."NumVesselsByFlourosopy"  -- 1.3 x vessels
        + 0.1 * (i."MaxExerciseHRTargetRatio" < 0.35)  -- HR ratio < 0.35
        + -0.2 * (i."MaxExerciseHRTargetRatio" >= 0.6)  -- HR ratio >= 0.6
        + -1.7 * i."MaxExerciseHRTargetRatio"  -- -1.7 x HR ratio
        + 0.3 * (i."Male" = 1)  -- male
        + 1 * i."ExerciseAngina"  -- exercise angina
    ) AS "score",
    ((  -- a NULL input makes the sum NULL
        0
        + 0.7 * i."ExerciseSTDepression"  -- 0.7 x ST depression
        + 1.3 * i."NumVesselsByFlourosopy"  -- 1.3 x vessels
        + 0.1 * (i."MaxExerciseHRTargetRatio" < 0.35)  -- HR ratio < 0.35
        + -0.2 * (i."MaxExerciseHRTargetRatio" >= 0.6)  -- HR ratio >= 0.6
        + -1.7 * i."MaxExerciseHRTargetRatio"  -- -1.7 x HR ratio
        + 0.3 * (i."Male" = 1)  -- male
        + 1 * i."ExerciseAngina"  -- exercise angina
    ) > 1.1) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i
