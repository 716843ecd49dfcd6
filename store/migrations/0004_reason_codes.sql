-- engine: sqlite
-- (PostgreSQL's schema was made whole by 0001.)
-- Why a game ended becomes a code (games.base.Termination), not an English
-- sentence: the words are the presentation layer's (words/), in any language.
-- The texts below are every one the service and the engines wrote before this
-- migration: how it ended (`ending`) decides resignation, time and agreement;
-- the sentence decides the rest. The LIKE patterns are tried in order (the
-- longer Oska sentence before the one it starts with). A text matching none is
-- set to NULL: for a game ended by the rules the engine's outcome is rebuilt
-- from the moves anyway.
UPDATE games SET reason = CASE
    WHEN ending = 'resigned' OR reason LIKE '% resigned' THEN 'resignation'
    WHEN ending = 'time' OR reason LIKE '% ran out of time' THEN 'time'
    WHEN ending = 'agreed' OR reason = 'drawn by agreement' THEN 'agreement'
    -- Oska
    WHEN reason = 'neither player can move' THEN 'blocked'
    WHEN reason = 'both players have every stone home' THEN 'goal'
    WHEN reason = 'both players have lost every stone' THEN 'elimination'
    WHEN reason LIKE '% has lost every stone, so every stone it has left is home' THEN 'goal-stoneless'
    WHEN reason LIKE '% has every stone home' THEN 'goal'
    WHEN reason LIKE '% has lost every stone' THEN 'elimination'
    -- Lasca
    WHEN reason LIKE '% cannot move' THEN 'no-moves'
    WHEN reason LIKE '% has no columns left' THEN 'elimination'
    WHEN reason = 'threefold repetition' THEN 'repetition'
    WHEN reason LIKE '% moves without a capture or a soldier move' THEN 'move-limit'
    -- Oware
    WHEN reason LIKE '% has captured % seeds' THEN 'twenty-five'
    WHEN reason LIKE 'position repeated;%' THEN 'repetition'
    WHEN reason LIKE '% has no seeds;%' THEN 'no-seeds'
    WHEN reason LIKE '% cannot be fed;%' THEN 'cannot-feed'
END
WHERE reason IS NOT NULL OR ending IS NOT NULL;

-- `ending` (rules, resigned, agreed, time) said again what the code now says.
ALTER TABLE games DROP COLUMN ending;
