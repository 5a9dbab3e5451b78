-- scorecard linear model for poisonous (positive: 1)
-- dialect: sqlite; reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is (whitespace: the characters of w."whitespace", those Python's str.strip() removes)
SELECT i.*,
    (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i."stalk_root" IS NULL OR TRIM(i."stalk_root", w."whitespace") = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END  -- stalk root bulbous
    ) AS "score",
    ((  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i."stalk_root" IS NULL OR TRIM(i."stalk_root", w."whitespace") = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END  -- stalk root bulbous
    ) > 1) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i
CROSS JOIN (SELECT char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288) AS "whitespace") AS w
