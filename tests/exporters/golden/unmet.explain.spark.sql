-- scorecard linear model for poisonous (positive: 1)
-- dialect: spark; reads table `input`; returns its columns plus score, prediction, reason_1, reason_2, reason_3, points_1, points_2 and points_3
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is (whitespace: the characters of w.`whitespace`, those Python's str.strip() removes)
-- reason_1..reason_3, points_1..points_3: the terms that added points > 0 to the row (their card wording, their points), the most first, equal points in term order; NULL where fewer terms added points or the row has no score
SELECT i.*,
    s.`score` AS `score`,
    (s.`score` > 1) AS `prediction`,  -- NULL when the score is NULL
    CASE WHEN size(e.`scorecard_ranked_terms`) >= 1
    THEN element_at(e.`scorecard_ranked_terms`, 1).r END AS `reason_1`,
    CASE WHEN size(e.`scorecard_ranked_terms`) >= 2
    THEN element_at(e.`scorecard_ranked_terms`, 2).r END AS `reason_2`,
    CASE WHEN size(e.`scorecard_ranked_terms`) >= 3
    THEN element_at(e.`scorecard_ranked_terms`, 3).r END AS `reason_3`,
    CASE WHEN size(e.`scorecard_ranked_terms`) >= 1
    THEN element_at(e.`scorecard_ranked_terms`, 1).c END AS `points_1`,
    CASE WHEN size(e.`scorecard_ranked_terms`) >= 2
    THEN element_at(e.`scorecard_ranked_terms`, 2).c END AS `points_2`,
    CASE WHEN size(e.`scorecard_ranked_terms`) >= 3
    THEN element_at(e.`scorecard_ranked_terms`, 3).c END AS `points_3`
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
CROSS JOIN LATERAL (SELECT array_sort(filter(array(named_struct('n', -CAST(CASE WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END AS BIGINT), 'i', 1, 'r', 'odor is bad', 'c', CAST(CASE WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END AS BIGINT)), named_struct('n', -CAST(CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END AS BIGINT), 'i', 2, 'r', 'odor = none', 'c', CAST(CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END AS BIGINT)), named_struct('n', -CAST(CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END AS BIGINT), 'i', 3, 'r', 'spore print green', 'c', CAST(CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END AS BIGINT)), named_struct('n', -CAST(CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END AS BIGINT), 'i', 4, 'r', 'stalk root club or rooted', 'c', CAST(CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END AS BIGINT)), named_struct('n', -CAST(CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END AS BIGINT), 'i', 5, 'r', 'gill size narrow', 'c', CAST(CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END AS BIGINT)), named_struct('n', -CAST(CASE WHEN i.`stalk_root` IS NULL OR btrim(i.`stalk_root`, w.`whitespace`) = '' THEN 3 ELSE 0 END AS BIGINT), 'i', 6, 'r', 'stalk root unknown', 'c', CAST(CASE WHEN i.`stalk_root` IS NULL OR btrim(i.`stalk_root`, w.`whitespace`) = '' THEN 3 ELSE 0 END AS BIGINT)), named_struct('n', -CAST(CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END AS BIGINT), 'i', 7, 'r', 'stalk root bulbous', 'c', CAST(CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END AS BIGINT))), term -> term.c > 0)) AS `scorecard_ranked_terms`) AS e
