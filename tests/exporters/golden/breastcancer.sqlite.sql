-- scorecard linear model for Benign (positive: 1)
-- dialect: sqlite; reads table input; returns its columns plus score and prediction
-- score = intercept + points of the terms below, added in this order; prediction = 1 when score > 0
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT i.*,
    (  -- a NULL input makes the sum NULL
        -8
        + 2 * i."UniformityOfCellSize"  -- UniformityOfCellSize
        + 1 * i."BareNuclei"  -- BareNuclei
    ) AS "score",
    ((  -- a NULL input makes the sum NULL
        -8
        + 2 * i."UniformityOfCellSize"  -- UniformityOfCellSize
        + 1 * i."BareNuclei"  -- BareNuclei
    ) > 0) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i;
