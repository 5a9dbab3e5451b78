-- scorecard linear model for Disease (positive: 1)
-- dialect: duckdb; reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1.1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT i.*,
    s."score" AS "score",
    CAST(s."score" > DOUBLE '1.1' AS INTEGER) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i
CROSS JOIN LATERAL (SELECT CASE WHEN (((typeof(i."ExerciseSTDepression") IN ('DOUBLE', 'FLOAT') AND isnan(i."ExerciseSTDepression")))
           OR ((typeof(i."NumVesselsByFlourosopy") IN ('DOUBLE', 'FLOAT') AND isnan(i."NumVesselsByFlourosopy"))))
           OR ((i."MaxExerciseHRTargetRatio" IS NULL OR (typeof(i."MaxExerciseHRTargetRatio") IN ('DOUBLE', 'FLOAT') AND isnan(i."MaxExerciseHRTargetRatio")))
           OR ((i."Male" IS NULL OR (typeof(i."Male") IN ('DOUBLE', 'FLOAT') AND isnan(i."Male")))
           OR ((typeof(i."ExerciseAngina") IN ('DOUBLE', 'FLOAT') AND isnan(i."ExerciseAngina")))))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + DOUBLE '0.7' * i."ExerciseSTDepression"  -- 0.7 x ST depression
        + DOUBLE '1.3' * i."NumVesselsByFlourosopy"  -- 1.3 x vessels
        + CASE WHEN i."MaxExerciseHRTargetRatio" < DOUBLE '0.35' THEN DOUBLE '0.1' ELSE 0 END  -- HR ratio < 0.35
        + CASE WHEN i."MaxExerciseHRTargetRatio" >= DOUBLE '0.6' THEN DOUBLE '-0.2' ELSE 0 END  -- HR ratio >= 0.6
        + DOUBLE '-1.7' * i."MaxExerciseHRTargetRatio"  -- -1.7 x HR ratio
        + CASE WHEN i."Male" = 1 THEN DOUBLE '0.3' ELSE 0 END  -- male
        + 1 * i."ExerciseAngina"  -- exercise angina
    END AS "score") AS s
