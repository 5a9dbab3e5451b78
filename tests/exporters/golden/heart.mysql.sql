-- scorecard linear model for Disease (positive: 1)
-- dialect: mysql; reads table `input`; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1.1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT i.*,
    CASE WHEN (i.`MaxExerciseHRTargetRatio` IS NULL)
           OR (i.`Male` IS NULL)
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + CAST('0.7' AS DOUBLE) * i.`ExerciseSTDepression`  -- 0.7 x ST depression
        + CAST('1.3' AS DOUBLE) * i.`NumVesselsByFlourosopy`  -- 1.3 x vessels
        + CASE WHEN i.`MaxExerciseHRTargetRatio` < CAST('0.35' AS DOUBLE) THEN CAST('0.1' AS DOUBLE) ELSE 0 END  -- HR ratio < 0.35
        + CASE WHEN i.`MaxExerciseHRTargetRatio` >= CAST('0.6' AS DOUBLE) THEN CAST('-0.2' AS DOUBLE) ELSE 0 END  -- HR ratio >= 0.6
        + CAST('-1.7' AS DOUBLE) * i.`MaxExerciseHRTargetRatio`  -- -1.7 x HR ratio
        + CASE WHEN i.`Male` = 1 THEN CAST('0.3' AS DOUBLE) ELSE 0 END  -- male
        + 1 * i.`ExerciseAngina`  -- exercise angina
    END AS `score`,
    CASE WHEN CASE WHEN (i.`MaxExerciseHRTargetRatio` IS NULL)
           OR (i.`Male` IS NULL)
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + CAST('0.7' AS DOUBLE) * i.`ExerciseSTDepression`  -- 0.7 x ST depression
        + CAST('1.3' AS DOUBLE) * i.`NumVesselsByFlourosopy`  -- 1.3 x vessels
        + CASE WHEN i.`MaxExerciseHRTargetRatio` < CAST('0.35' AS DOUBLE) THEN CAST('0.1' AS DOUBLE) ELSE 0 END  -- HR ratio < 0.35
        + CASE WHEN i.`MaxExerciseHRTargetRatio` >= CAST('0.6' AS DOUBLE) THEN CAST('-0.2' AS DOUBLE) ELSE 0 END  -- HR ratio >= 0.6
        + CAST('-1.7' AS DOUBLE) * i.`MaxExerciseHRTargetRatio`  -- -1.7 x HR ratio
        + CASE WHEN i.`Male` = 1 THEN CAST('0.3' AS DOUBLE) ELSE 0 END  -- male
        + 1 * i.`ExerciseAngina`  -- exercise angina
    END > CAST('1.1' AS DOUBLE) THEN 1 WHEN CASE WHEN (i.`MaxExerciseHRTargetRatio` IS NULL)
           OR (i.`Male` IS NULL)
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + CAST('0.7' AS DOUBLE) * i.`ExerciseSTDepression`  -- 0.7 x ST depression
        + CAST('1.3' AS DOUBLE) * i.`NumVesselsByFlourosopy`  -- 1.3 x vessels
        + CASE WHEN i.`MaxExerciseHRTargetRatio` < CAST('0.35' AS DOUBLE) THEN CAST('0.1' AS DOUBLE) ELSE 0 END  -- HR ratio < 0.35
        + CASE WHEN i.`MaxExerciseHRTargetRatio` >= CAST('0.6' AS DOUBLE) THEN CAST('-0.2' AS DOUBLE) ELSE 0 END  -- HR ratio >= 0.6
        + CAST('-1.7' AS DOUBLE) * i.`MaxExerciseHRTargetRatio`  -- -1.7 x HR ratio
        + CASE WHEN i.`Male` = 1 THEN CAST('0.3' AS DOUBLE) ELSE 0 END  -- male
        + 1 * i.`ExerciseAngina`  -- exercise angina
    END <= CAST('1.1' AS DOUBLE) THEN 0 END AS `prediction`  -- NULL when the score is NULL
FROM `input` AS i
