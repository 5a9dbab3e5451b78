-- scorecard linear model for Benign (positive: 1)
-- dialect: duckdb; reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 8 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT i.*,
    s."score" AS "score",
    CAST(s."score" > 8 AS INTEGER) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i
CROSS JOIN LATERAL (SELECT CASE WHEN ((typeof(i."UniformityOfCellSize") IN ('DOUBLE', 'FLOAT') AND isnan(i."UniformityOfCellSize")))
           OR ((typeof(i."BareNuclei") IN ('DOUBLE', 'FLOAT') AND isnan(i."BareNuclei")))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + 2 * i."UniformityOfCellSize"  -- UniformityOfCellSize
        + 1 * i."BareNuclei"  -- BareNuclei
    END AS "score") AS s
