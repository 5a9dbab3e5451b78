-- scorecard linear model for Disease (positive: 1)
-- dialect: spark; reads table `input`; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1.1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT i.*,
    s.`score` AS `score`,
    (s.`score` > 1.1D) AS `prediction`  -- NULL when the score is NULL
FROM `input` AS i
CROSS JOIN LATERAL (SELECT CASE WHEN ((isnan(i.`ExerciseSTDepression`))
           OR (isnan(i.`NumVesselsByFlourosopy`)))
           OR ((i.`MaxExerciseHRTargetRatio` IS NULL OR isnan(i.`MaxExerciseHRTargetRatio`))
           OR ((i.`Male` IS NULL OR isnan(i.`Male`))
           OR (isnan(i.`ExerciseAngina`))))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + 0.7D * i.`ExerciseSTDepression`  -- 0.7 x ST depression
        + 1.3D * i.`NumVesselsByFlourosopy`  -- 1.3 x vessels
        + CASE WHEN i.`MaxExerciseHRTargetRatio` < 0.35D THEN 0.1D ELSE 0 END  -- HR ratio < 0.35
        + CASE WHEN i.`MaxExerciseHRTargetRatio` >= 0.6D THEN -0.2D ELSE 0 END  -- HR ratio >= 0.6
        + -1.7D * i.`MaxExerciseHRTargetRatio`  -- -1.7 x HR ratio
        + CASE WHEN i.`Male` = 1 THEN 0.3D ELSE 0 END  -- male
        + 1 * i.`ExerciseAngina`  -- exercise angina
    END AS `score`) AS s
