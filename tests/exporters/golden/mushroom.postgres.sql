-- scorecard linear model for poisonous (positive: 1)
-- dialect: postgres; reads table input; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only (the hex characters in TRIM) is missing, as NULL is
SELECT i.*,
    s."score" AS "score",
    CASE WHEN s."score" > 1 THEN 1 WHEN s."score" <= 1 THEN 0 END AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i
CROSS JOIN LATERAL (SELECT CASE WHEN ((i."odor" IS NULL OR BTRIM(i."odor", convert_from(decode('090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080', 'hex'), 'UTF8')) = '')
           OR (i."spore_print_color" IS NULL OR BTRIM(i."spore_print_color", convert_from(decode('090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080', 'hex'), 'UTF8')) = ''))
           OR ((i."stalk_root" IS NULL OR BTRIM(i."stalk_root", convert_from(decode('090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080', 'hex'), 'UTF8')) = '')
           OR (i."gill_size" IS NULL OR BTRIM(i."gill_size", convert_from(decode('090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080', 'hex'), 'UTF8')) = ''))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
    END AS "score") AS s;
