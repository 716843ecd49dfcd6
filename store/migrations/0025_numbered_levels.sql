-- Kamen's levels became a ladder of eight, "1" to "8": a game against Kamen keeps its
-- strength under the number its old level's name now has (games/ai/levels.py, ALIASES).
UPDATE games SET ai_level = CASE ai_level
    WHEN 'easy' THEN '1'
    WHEN 'medium' THEN '3'
    WHEN 'medium-hard' THEN '5'
    WHEN 'hard' THEN '7'
    WHEN 'max' THEN '8'
    ELSE ai_level END
WHERE ai_level IS NOT NULL;
