-- scorecard linear model for poisonous (positive: 1)
-- dialect: bigquery (written by sqlglot 30.30.0 from the ansi query); reads table "input"; returns its columns plus score, prediction, reason_1, reason_2, reason_3, points_1, points_2 and points_3
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is
-- reason_1..reason_3, points_1..points_3: the terms that added points > 0 to the row (their card wording, their points), the most first, equal points in term order; NULL where fewer terms added points or the row has no score
SELECT
  i.*,
  (
    0 + CASE
      WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
      THEN 6
      ELSE 0
    END /* odor is bad */ + CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */ + CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END /* stalk root unknown */ + CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END /* stalk root bulbous */
  ) AS `score`, /* no input makes the score NULL: a missing value adds 0 or its 'unknown' points */
  CASE
    WHEN (
      0 + CASE
        WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
        THEN 6
        ELSE 0
      END /* odor is bad */ + CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */ + CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END /* stalk root unknown */ + CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END /* stalk root bulbous */
    ) /* no input makes the score NULL: a missing value adds 0 or its 'unknown' points */ > 1
    THEN 1
    WHEN (
      0 + CASE
        WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
        THEN 6
        ELSE 0
      END /* odor is bad */ + CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */ + CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END /* stalk root unknown */ + CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END /* stalk root bulbous */
    ) /* no input makes the score NULL: a missing value adds 0 or its 'unknown' points */ <= 1
    THEN 0
  END AS `prediction`, /* NULL when the score is NULL */
  (
    SELECT
      u.`r`
    FROM (
      SELECT
        t.`r`,
        t.`c`,
        ROW_NUMBER() OVER (ORDER BY t.`c` DESC NULLS FIRST, t.`i` NULLS LAST) AS `rn`
      FROM (
        SELECT
          1 AS `i`,
          'odor is bad' AS `r`,
          CASE
            WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
            THEN 6
            ELSE 0
          END AS `c`
        UNION ALL
        SELECT
          2,
          'odor = none',
          CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END
        UNION ALL
        SELECT
          3,
          'spore print green',
          CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END
        UNION ALL
        SELECT
          4,
          'stalk root club or rooted',
          CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END
        UNION ALL
        SELECT
          5,
          'gill size narrow',
          CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END
        UNION ALL
        SELECT
          6,
          'stalk root unknown',
          CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END
        UNION ALL
        SELECT
          7,
          'stalk root bulbous',
          CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END
      ) AS t
      WHERE
        t.`c` > 0
    ) AS u
    WHERE
      u.`rn` = 1
  ) AS `reason_1`,
  (
    SELECT
      u.`r`
    FROM (
      SELECT
        t.`r`,
        t.`c`,
        ROW_NUMBER() OVER (ORDER BY t.`c` DESC NULLS FIRST, t.`i` NULLS LAST) AS `rn`
      FROM (
        SELECT
          1 AS `i`,
          'odor is bad' AS `r`,
          CASE
            WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
            THEN 6
            ELSE 0
          END AS `c`
        UNION ALL
        SELECT
          2,
          'odor = none',
          CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END
        UNION ALL
        SELECT
          3,
          'spore print green',
          CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END
        UNION ALL
        SELECT
          4,
          'stalk root club or rooted',
          CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END
        UNION ALL
        SELECT
          5,
          'gill size narrow',
          CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END
        UNION ALL
        SELECT
          6,
          'stalk root unknown',
          CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END
        UNION ALL
        SELECT
          7,
          'stalk root bulbous',
          CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END
      ) AS t
      WHERE
        t.`c` > 0
    ) AS u
    WHERE
      u.`rn` = 2
  ) AS `reason_2`,
  (
    SELECT
      u.`r`
    FROM (
      SELECT
        t.`r`,
        t.`c`,
        ROW_NUMBER() OVER (ORDER BY t.`c` DESC NULLS FIRST, t.`i` NULLS LAST) AS `rn`
      FROM (
        SELECT
          1 AS `i`,
          'odor is bad' AS `r`,
          CASE
            WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
            THEN 6
            ELSE 0
          END AS `c`
        UNION ALL
        SELECT
          2,
          'odor = none',
          CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END
        UNION ALL
        SELECT
          3,
          'spore print green',
          CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END
        UNION ALL
        SELECT
          4,
          'stalk root club or rooted',
          CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END
        UNION ALL
        SELECT
          5,
          'gill size narrow',
          CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END
        UNION ALL
        SELECT
          6,
          'stalk root unknown',
          CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END
        UNION ALL
        SELECT
          7,
          'stalk root bulbous',
          CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END
      ) AS t
      WHERE
        t.`c` > 0
    ) AS u
    WHERE
      u.`rn` = 3
  ) AS `reason_3`,
  (
    SELECT
      u.`c`
    FROM (
      SELECT
        t.`r`,
        t.`c`,
        ROW_NUMBER() OVER (ORDER BY t.`c` DESC NULLS FIRST, t.`i` NULLS LAST) AS `rn`
      FROM (
        SELECT
          1 AS `i`,
          'odor is bad' AS `r`,
          CASE
            WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
            THEN 6
            ELSE 0
          END AS `c`
        UNION ALL
        SELECT
          2,
          'odor = none',
          CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END
        UNION ALL
        SELECT
          3,
          'spore print green',
          CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END
        UNION ALL
        SELECT
          4,
          'stalk root club or rooted',
          CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END
        UNION ALL
        SELECT
          5,
          'gill size narrow',
          CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END
        UNION ALL
        SELECT
          6,
          'stalk root unknown',
          CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END
        UNION ALL
        SELECT
          7,
          'stalk root bulbous',
          CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END
      ) AS t
      WHERE
        t.`c` > 0
    ) AS u
    WHERE
      u.`rn` = 1
  ) AS `points_1`,
  (
    SELECT
      u.`c`
    FROM (
      SELECT
        t.`r`,
        t.`c`,
        ROW_NUMBER() OVER (ORDER BY t.`c` DESC NULLS FIRST, t.`i` NULLS LAST) AS `rn`
      FROM (
        SELECT
          1 AS `i`,
          'odor is bad' AS `r`,
          CASE
            WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
            THEN 6
            ELSE 0
          END AS `c`
        UNION ALL
        SELECT
          2,
          'odor = none',
          CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END
        UNION ALL
        SELECT
          3,
          'spore print green',
          CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END
        UNION ALL
        SELECT
          4,
          'stalk root club or rooted',
          CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END
        UNION ALL
        SELECT
          5,
          'gill size narrow',
          CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END
        UNION ALL
        SELECT
          6,
          'stalk root unknown',
          CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END
        UNION ALL
        SELECT
          7,
          'stalk root bulbous',
          CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END
      ) AS t
      WHERE
        t.`c` > 0
    ) AS u
    WHERE
      u.`rn` = 2
  ) AS `points_2`,
  (
    SELECT
      u.`c`
    FROM (
      SELECT
        t.`r`,
        t.`c`,
        ROW_NUMBER() OVER (ORDER BY t.`c` DESC NULLS FIRST, t.`i` NULLS LAST) AS `rn`
      FROM (
        SELECT
          1 AS `i`,
          'odor is bad' AS `r`,
          CASE
            WHEN i.`odor` IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
            THEN 6
            ELSE 0
          END AS `c`
        UNION ALL
        SELECT
          2,
          'odor = none',
          CASE WHEN i.`odor` = 'none' THEN -2 ELSE 0 END
        UNION ALL
        SELECT
          3,
          'spore print green',
          CASE WHEN i.`spore_print_color` = 'green' THEN 5 ELSE 0 END
        UNION ALL
        SELECT
          4,
          'stalk root club or rooted',
          CASE WHEN i.`stalk_root` IN ('club', 'rooted') THEN -1 ELSE 0 END
        UNION ALL
        SELECT
          5,
          'gill size narrow',
          CASE WHEN i.`gill_size` = 'narrow' THEN 2 ELSE 0 END
        UNION ALL
        SELECT
          6,
          'stalk root unknown',
          CASE WHEN i.`stalk_root` IS NULL OR TRIM(i.`stalk_root`) = '' THEN 3 ELSE 0 END
        UNION ALL
        SELECT
          7,
          'stalk root bulbous',
          CASE WHEN i.`stalk_root` = 'bulbous' THEN 1 ELSE 0 END
      ) AS t
      WHERE
        t.`c` > 0
    ) AS u
    WHERE
      u.`rn` = 3
  ) AS `points_3`
FROM `input` AS i
