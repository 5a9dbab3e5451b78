-- scorecard linear model for poisonous (positive: 1)
-- dialect: spark; reads table `input`; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is (whitespace: the characters of w.`whitespace`, those Python's str.strip() removes)
SELECT i.*,
    s.`score` AS `score`,
    (s.`score` > 1) AS `prediction`  -- NULL when the score is NULL
FROM `input` AS i
CROSS JOIN (SELECT '\u0009\u000a\u000b\u000c\u000d\u001c\u001d\u001e\u001f\u0020\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000' AS `whitespace`) AS w
CROSS JOIN LATERAL (SELECT (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i.`stalk_root` IS NULL OR btrim(i.`stalk_root`, w.`whitespace`) = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END  -- stalk root bulbous
    ) AS `score`) AS s
