-- scorecard linear model for poisonous (positive: 1)
-- dialect: sqlite; reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is (whitespace: the characters of w."whitespace", those Python's str.strip() removes)
SELECT i.*,
    CASE WHEN ((TRIM(i."odor", w."whitespace") = '')
           OR (TRIM(i."spore_print_color", w."whitespace") = ''))
           OR ((TRIM(i."stalk_root", w."whitespace") = '')
           OR (TRIM(i."gill_size", w."whitespace") = ''))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + 6 * (i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty'))  -- odor is bad
        + -2 * (i."odor" = 'none')  -- odor = none
        + 5 * (i."spore_print_color" = 'green')  -- spore print green
        + -1 * (i."stalk_root" IN ('club', 'rooted'))  -- stalk root club or rooted
        + 2 * (i."gill_size" = 'narrow')  -- gill size narrow
    END AS "score",
    (CASE WHEN ((TRIM(i."odor", w."whitespace") = '')
           OR (TRIM(i."spore_print_color", w."whitespace") = ''))
           OR ((TRIM(i."stalk_root", w."whitespace") = '')
           OR (TRIM(i."gill_size", w."whitespace") = ''))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + 6 * (i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty'))  -- odor is bad
        + -2 * (i."odor" = 'none')  -- odor = none
        + 5 * (i."spore_print_color" = 'green')  -- spore print green
        + -1 * (i."stalk_root" IN ('club', 'rooted'))  -- stalk root club or rooted
        + 2 * (i."gill_size" = 'narrow')  -- gill size narrow
    END > 1) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i
CROSS JOIN (SELECT char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288) AS "whitespace") AS w
