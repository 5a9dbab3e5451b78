-- scorecard linear model for poisonous (positive: 1)
-- dialect: oracle (written by sqlglot 30.30.0 from the ansi query); reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is
SELECT
  i.*,
  CASE
    WHEN (
      (
        i."odor" IS NULL OR TRIM(i."odor") = ''
      )
      OR (
        i."spore_print_color" IS NULL OR TRIM(i."spore_print_color") = ''
      )
    )
    OR (
      (
        i."stalk_root" IS NULL OR TRIM(i."stalk_root") = ''
      )
      OR (
        i."gill_size" IS NULL OR TRIM(i."gill_size") = ''
      )
    )
    THEN NULL /* a missing input: no score */
    ELSE 0 + CASE
      WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
      THEN 6
      ELSE 0
    END /* odor is bad */ + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */
  END AS "score",
  CASE
    WHEN CASE
      WHEN (
        (
          i."odor" IS NULL OR TRIM(i."odor") = ''
        )
        OR (
          i."spore_print_color" IS NULL OR TRIM(i."spore_print_color") = ''
        )
      )
      OR (
        (
          i."stalk_root" IS NULL OR TRIM(i."stalk_root") = ''
        )
        OR (
          i."gill_size" IS NULL OR TRIM(i."gill_size") = ''
        )
      )
      THEN NULL /* a missing input: no score */
      ELSE 0 + CASE
        WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
        THEN 6
        ELSE 0
      END /* odor is bad */ + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */
    END > 1
    THEN 1
    WHEN CASE
      WHEN (
        (
          i."odor" IS NULL OR TRIM(i."odor") = ''
        )
        OR (
          i."spore_print_color" IS NULL OR TRIM(i."spore_print_color") = ''
        )
      )
      OR (
        (
          i."stalk_root" IS NULL OR TRIM(i."stalk_root") = ''
        )
        OR (
          i."gill_size" IS NULL OR TRIM(i."gill_size") = ''
        )
      )
      THEN NULL /* a missing input: no score */
      ELSE 0 + CASE
        WHEN i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
        THEN 6
        ELSE 0
      END /* odor is bad */ + CASE WHEN i."odor" = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i."spore_print_color" = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i."stalk_root" IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i."gill_size" = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */
    END <= 1
    THEN 0
  END AS "prediction" /* NULL when the score is NULL */
FROM "input" i
