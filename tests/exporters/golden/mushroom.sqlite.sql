-- scorecard linear model for poisonous (positive: 1)
-- dialect: sqlite; reads table input; returns its columns plus score and prediction
-- score = the points total of the card: the points of the terms below, added in this order
-- prediction = 1 when score > 1 (the card's threshold)
-- missing values: a row missing a used input gets score NULL and prediction NULL
-- numeric inputs must be numeric columns (cast numbers stored as text first)
-- a text that is empty or whitespace only (the hex characters in TRIM) is missing, as NULL is
SELECT i.*,
    CASE WHEN ((TRIM(i."odor", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = '')
           OR (TRIM(i."spore_print_color", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = ''))
           OR ((TRIM(i."stalk_root", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = '')
           OR (TRIM(i."gill_size", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = ''))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + 6 * (i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty'))  -- odor is bad
        + -2 * (i."odor" = 'none')  -- odor = none
        + 5 * (i."spore_print_color" = 'green')  -- spore print green
        + -1 * (i."stalk_root" IN ('club', 'rooted'))  -- stalk root club or rooted
        + 2 * (i."gill_size" = 'narrow')  -- gill size narrow
    END AS "score",
    (CASE WHEN ((TRIM(i."odor", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = '')
           OR (TRIM(i."spore_print_color", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = ''))
           OR ((TRIM(i."stalk_root", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = '')
           OR (TRIM(i."gill_size", CAST(X'090a0b0c0d1c1d1e1f20c285c2a0e19a80e28080e28081e28082e28083e28084e28085e28086e28087e28088e28089e2808ae280a8e280a9e280afe2819fe38080' AS TEXT)) = ''))
    THEN NULL  -- a missing input: no score
    ELSE  -- a NULL input makes the sum NULL
        0
        + 6 * (i."odor" IN ('foul', 'pungent', 'creosote', 'fishy', 'spicy', 'musty'))  -- odor is bad
        + -2 * (i."odor" = 'none')  -- odor = none
        + 5 * (i."spore_print_color" = 'green')  -- spore print green
        + -1 * (i."stalk_root" IN ('club', 'rooted'))  -- stalk root club or rooted
        + 2 * (i."gill_size" = 'narrow')  -- gill size narrow
    END > 1) AS "prediction"  -- NULL when the score is NULL
FROM "input" AS i;
