-- scorecard linear model for poisonous (positive: 1)
-- dialect: tsql (written by sqlglot 30.30.0 from the ansi query); reads table "input"; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a missing value meets no condition on its input (0 points) except its 'unknown' one
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only is missing, as NULL is
SELECT
  i.*,
  (
    0 + CASE
      WHEN i.[odor] IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
      THEN 6
      ELSE 0
    END /* odor is bad */ + CASE WHEN i.[odor] = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i.[spore_print_color] = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i.[stalk_root] IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i.[gill_size] = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */ + CASE WHEN i.[stalk_root] IS NULL OR TRIM(i.[stalk_root]) = '' THEN 3 ELSE 0 END /* stalk root unknown */ + CASE WHEN i.[stalk_root] = 'bulbous' THEN 1 ELSE 0 END /* stalk root bulbous */
  ) AS [score], /* no input makes the score NULL: a missing value adds 0 or its 'unknown' points */
  CASE
    WHEN (
      0 + CASE
        WHEN i.[odor] IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
        THEN 6
        ELSE 0
      END /* odor is bad */ + CASE WHEN i.[odor] = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i.[spore_print_color] = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i.[stalk_root] IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i.[gill_size] = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */ + CASE WHEN i.[stalk_root] IS NULL OR TRIM(i.[stalk_root]) = '' THEN 3 ELSE 0 END /* stalk root unknown */ + CASE WHEN i.[stalk_root] = 'bulbous' THEN 1 ELSE 0 END /* stalk root bulbous */
    ) /* no input makes the score NULL: a missing value adds 0 or its 'unknown' points */ > 1
    THEN 1
    WHEN (
      0 + CASE
        WHEN i.[odor] IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty')
        THEN 6
        ELSE 0
      END /* odor is bad */ + CASE WHEN i.[odor] = 'none' THEN -2 ELSE 0 END /* odor = none */ + CASE WHEN i.[spore_print_color] = 'green' THEN 5 ELSE 0 END /* spore print green */ + CASE WHEN i.[stalk_root] IN ('club', 'rooted') THEN -1 ELSE 0 END /* stalk root club or rooted */ + CASE WHEN i.[gill_size] = 'narrow' THEN 2 ELSE 0 END /* gill size narrow */ + CASE WHEN i.[stalk_root] IS NULL OR TRIM(i.[stalk_root]) = '' THEN 3 ELSE 0 END /* stalk root unknown */ + CASE WHEN i.[stalk_root] = 'bulbous' THEN 1 ELSE 0 END /* stalk root bulbous */
    ) /* no input makes the score NULL: a missing value adds 0 or its 'unknown' points */ <= 1
    THEN 0
  END AS [prediction] /* NULL when the score is NULL */
FROM [input] AS i
