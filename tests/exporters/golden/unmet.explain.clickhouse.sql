-- scorecard linear model for poisonous (positive: 1)
-- dialect: clickhouse; reads table "input"; returns its columns plus score, prediction, reason_1, reason_2, reason_3, points_1, points_2 and points_3
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is
-- reason_1..reason_3, points_1..points_3: the terms that added points > 0 to the row (their card wording, their points), the most first, equal points in term order; NULL where fewer terms added points or the row has no score
SELECT i.*,
    (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i."stalk_root" IS NULL OR replaceRegexpAll(i."stalk_root", '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END  -- stalk root bulbous
    ) AS "score",
    CASE WHEN (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i."stalk_root" IS NULL OR replaceRegexpAll(i."stalk_root", '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END  -- stalk root bulbous
    ) > 1 THEN 1 WHEN (  -- no input makes the score NULL: a missing value adds 0 or its 'unknown' points
        0
        + CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END  -- odor is bad
        + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END  -- odor = none
        + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END  -- spore print green
        + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END  -- stalk root club or rooted
        + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END  -- gill size narrow
        + CASE WHEN i."stalk_root" IS NULL OR replaceRegexpAll(i."stalk_root", '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END  -- stalk root unknown
        + CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END  -- stalk root bulbous
    ) <= 1 THEN 0 END AS "prediction",  -- NULL when the score is NULL
    CASE WHEN length((arraySort(arrayFilter(x -> tupleElement(x, 4) > 0, [tuple(-(CAST(CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END AS Nullable(Int64))), 1, 'odor is bad', CAST(CASE WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty') THEN 6 ELSE 0 END AS Nullable(Int64))), tuple(-(CAST(CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END AS Nullable(Int64))), 2, 'odor = none', CAST(CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END AS Nullable(Int64))), tuple(-(CAST(CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END AS Nullable(Int64))), 3, 'spore print green', CAST(CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END AS Nullable(Int64))), tuple(-(CAST(CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END AS Nullable(Int64))), 4, 'stalk root club or rooted', CAST(CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END AS Nullable(Int64))), tuple(-(CAST(CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END AS Nullable(Int64))), 5, 'gill size narrow', CAST(CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END AS Nullable(Int64))), tuple(-(CAST(CASE WHEN i."stalk_root" IS NULL OR replaceRegexpAll(i."stalk_root", '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END AS Nullable(Int64))), 6, 'stalk root unknown', CAST(CASE WHEN i."stalk_root" IS NULL OR replaceRegexpAll(i."stalk_root", '^[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+|[\\x{0009}\\x{000a}\\x{000b}\\x{000c}\\x{000d}\\x{001c}\\x{001d}\\x{001e}\\x{001f}\\x{0020}\\x{0085}\\x{00a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}\\x{2003}\\x{2004}\\x{2005}\\x{2006}\\x{2007}\\x{2008}\\x{2009}\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]+$', '') = '' THEN 3 ELSE 0 END AS Nullable(Int64))), tuple(-(CAST(CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END AS Nullable(Int64))), 7, 'stalk root bulbous', CAST(CASE WHEN i."stalk_root" = 'bulbous' THEN 1 ELSE 0 END AS Nullable(Int64)))])) AS "scorecard_ranked_terms")) >= 1
    THEN tupleElement(("scorecard_ranked_terms")[1], 3) END AS "reason_1",
    CASE WHEN length("scorecard_ranked_terms") >= 2
    THEN tupleElement(("scorecard_ranked_terms")[2], 3) END AS "reason_2",
    CASE WHEN length("scorecard_ranked_terms") >= 3
    THEN tupleElement(("scorecard_ranked_terms")[3], 3) END AS "reason_3",
    CASE WHEN length("scorecard_ranked_terms") >= 1
    THEN tupleElement(("scorecard_ranked_terms")[1], 4) END AS "points_1",
    CASE WHEN length("scorecard_ranked_terms") >= 2
    THEN tupleElement(("scorecard_ranked_terms")[2], 4) END AS "points_2",
    CASE WHEN length("scorecard_ranked_terms") >= 3
    THEN tupleElement(("scorecard_ranked_terms")[3], 4) END AS "points_3"
FROM "input" AS i
