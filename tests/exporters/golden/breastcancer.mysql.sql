-- scorecard linear model for Benign (positive: 1)
-- dialect: mysql; reads table `input`; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 8 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT i.*,
    (  -- a NULL input makes the sum NULL
        0
        + 2 * i.`UniformityOfCellSize`  -- UniformityOfCellSize
        + 1 * i.`BareNuclei`  -- BareNuclei
    ) AS `score`,
    CASE WHEN (  -- a NULL input makes the sum NULL
        0
        + 2 * i.`UniformityOfCellSize`  -- UniformityOfCellSize
        + 1 * i.`BareNuclei`  -- BareNuclei
    ) > 8 THEN 1 WHEN (  -- a NULL input makes the sum NULL
        0
        + 2 * i.`UniformityOfCellSize`  -- UniformityOfCellSize
        + 1 * i.`BareNuclei`  -- BareNuclei
    ) <= 8 THEN 0 END AS `prediction`  -- NULL when the score is NULL
FROM `input` AS i
