-- scorecard linear model for poisonous (positive: 1)
-- dialect: duckdb; reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is (whitespace: the characters of w."whitespace", those Python's str.strip() removes)
SELECT i.*,
    s."score" AS "score",
    CAST(s."score" > 1 AS INTEGER) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i
CROSS JOIN (SELECT chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || chr(28) || chr(29) || chr(30) || chr(31) || chr(32) || chr(133) || chr(160) || chr(5760) || chr(8192) || chr(8193) || chr(8194) || chr(8195) || chr(8196) || chr(8197) || chr(8198) || chr(8199) || chr(8200) || chr(8201) || chr(8202) || chr(8232) || chr(8233) || chr(8239) || chr(8287) || chr(12288) AS "whitespace") AS w
CROSS JOIN LATERAL (SELECT (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i."stalk_root" IS NULL OR TRIM(i."stalk_root", w."whitespace") = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END  -- stalk root bulbous
    ) AS "score") AS s
