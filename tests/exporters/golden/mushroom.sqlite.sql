-- scorecard linear model for poisonous (positive: 1)
-- dialect: sqlite; reads table input; returns its columns plus score and prediction
-- score = intercept + points of the terms below, added in this order; prediction = 1 when score > 0
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
SELECT s.*,
    (s."score" > 0) AS "prediction"  -- NULL when the score is NULL
FROM (
  SELECT i.*,
    CASE WHEN TRIM(i."odor") = ''
           OR TRIM(i."spore_print_color") = ''
           OR TRIM(i."stalk_root") = ''
           OR TRIM(i."gill_size") = ''
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        -1
        + 6 * (i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty'))  -- odor is bad
        + -2 * (i."odor" = 'none')  -- odor = none
        + 5 * (i."spore_print_color" = 'green')  -- spore print green
        + -1 * (i."stalk_root" IN ('club', 'rooted'))  -- stalk root club or rooted
        + 2 * (i."gill_size" = 'narrow')  -- gill size narrow
    END AS "score"
  FROM "input" AS i
) AS s;
