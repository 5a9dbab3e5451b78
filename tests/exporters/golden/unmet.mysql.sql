-- scorecard linear model for poisonous (positive: 1)
-- dialect: mysql; reads table `input`; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is
SELECT i.*,
    (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i.`odor` IN (_utf8mb4'foul' COLLATE utf8mb4_nopad_bin, _utf8mb4'pungent' COLLATE utf8mb4_nopad_bin, _utf8mb4'creosote' COLLATE utf8mb4_nopad_bin, _utf8mb4'fishy' COLLATE utf8mb4_nopad_bin, _utf8mb4'spicy' COLLATE utf8mb4_nopad_bin, _utf8mb4'musty' COLLATE utf8mb4_nopad_bin) THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i.`odor` = _utf8mb4'none' COLLATE utf8mb4_nopad_bin THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i.`spore_print_color` = _utf8mb4'green' COLLATE utf8mb4_nopad_bin THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i.`stalk_root` IN (_utf8mb4'club' COLLATE utf8mb4_nopad_bin, _utf8mb4'rooted' COLLATE utf8mb4_nopad_bin) THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i.`gill_size` = _utf8mb4'narrow' COLLATE utf8mb4_nopad_bin THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i.`stalk_root` IS NULL OR REGEXP_REPLACE(i.`stalk_root`, '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i.`stalk_root` = _utf8mb4'bulbous' COLLATE utf8mb4_nopad_bin THEN 1 ELSE 0 END  -- stalk root bulbous
    ) AS `score`,
    CASE WHEN (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i.`odor` IN (_utf8mb4'foul' COLLATE utf8mb4_nopad_bin, _utf8mb4'pungent' COLLATE utf8mb4_nopad_bin, _utf8mb4'creosote' COLLATE utf8mb4_nopad_bin, _utf8mb4'fishy' COLLATE utf8mb4_nopad_bin, _utf8mb4'spicy' COLLATE utf8mb4_nopad_bin, _utf8mb4'musty' COLLATE utf8mb4_nopad_bin) THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i.`odor` = _utf8mb4'none' COLLATE utf8mb4_nopad_bin THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i.`spore_print_color` = _utf8mb4'green' COLLATE utf8mb4_nopad_bin THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i.`stalk_root` IN (_utf8mb4'club' COLLATE utf8mb4_nopad_bin, _utf8mb4'rooted' COLLATE utf8mb4_nopad_bin) THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i.`gill_size` = _utf8mb4'narrow' COLLATE utf8mb4_nopad_bin THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i.`stalk_root` IS NULL OR REGEXP_REPLACE(i.`stalk_root`, '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i.`stalk_root` = _utf8mb4'bulbous' COLLATE utf8mb4_nopad_bin THEN 1 ELSE 0 END  -- stalk root bulbous
    ) > 1 THEN 1 WHEN (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i.`odor` IN (_utf8mb4'foul' COLLATE utf8mb4_nopad_bin, _utf8mb4'pungent' COLLATE utf8mb4_nopad_bin, _utf8mb4'creosote' COLLATE utf8mb4_nopad_bin, _utf8mb4'fishy' COLLATE utf8mb4_nopad_bin, _utf8mb4'spicy' COLLATE utf8mb4_nopad_bin, _utf8mb4'musty' COLLATE utf8mb4_nopad_bin) THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i.`odor` = _utf8mb4'none' COLLATE utf8mb4_nopad_bin THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i.`spore_print_color` = _utf8mb4'green' COLLATE utf8mb4_nopad_bin THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i.`stalk_root` IN (_utf8mb4'club' COLLATE utf8mb4_nopad_bin, _utf8mb4'rooted' COLLATE utf8mb4_nopad_bin) THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i.`gill_size` = _utf8mb4'narrow' COLLATE utf8mb4_nopad_bin THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i.`stalk_root` IS NULL OR REGEXP_REPLACE(i.`stalk_root`, '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i.`stalk_root` = _utf8mb4'bulbous' COLLATE utf8mb4_nopad_bin THEN 1 ELSE 0 END  -- stalk root bulbous
    ) <= 1 THEN 0 END AS `prediction`  -- NULL when the score is NULL
FROM `input` AS i
