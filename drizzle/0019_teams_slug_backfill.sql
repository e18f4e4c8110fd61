-- Every existing team gets a slug from its name, as new teams do: lower-case ASCII letters, digits and inner
-- hyphens, at most 50 characters, `team` when nothing usable is left, and `-2`, `-3`, ... when the slug is
-- taken. Teams are taken oldest first, so the oldest team of a name keeps the plain slug. The index only
-- speeds up the "is it taken" checks here; the unique index comes with the next migration.
CREATE INDEX "teams_slug_backfill_idx" ON "teams" ("slug");
--> statement-breakpoint
DO $$
DECLARE
  team record;
  base text;
  candidate text;
  n integer;
BEGIN
  FOR team IN SELECT id, name FROM teams WHERE slug IS NULL ORDER BY id LOOP
    base := regexp_replace(regexp_replace(replace(team.name, 'ß', 'ss'), '[æÆ]', 'ae', 'g'), '[œŒ]', 'oe', 'g');
    base := replace(base, '&', ' and ');
    base := lower(translate(base, 'àÀáÁâÂãÃäÄåÅāĀăĂąĄçÇćĆčČďĎđĐèÈéÉêÊëËēĒėĖęĘěĚğĞìÌíÍîÎïÏīĪįĮıIľĽłŁĺĹñÑńŃňŇòÒóÓôÔõÕöÖøØōŌőŐŕŔřŘśŚšŠşŞťŤţŢùÙúÚûÛüÜūŪůŮűŰųŲýÝÿŸźŹżŻžŽ', 'aaaaaaaaaaaaaaaaaaccccccddddeeeeeeeeeeeeeeeeggiiiiiiiiiiiiiillllllnnnnnnoooooooooooooooorrrrssssssttttuuuuuuuuuuuuuuuuyyyyzzzzzz'));
    base := trim(both '-' from regexp_replace(base, '[^a-z0-9]+', '-', 'g'));
    base := trim(trailing '-' from left(base, 50));
    IF base = '' THEN
      base := 'team';
    END IF;
    candidate := base;
    n := 1;
    WHILE EXISTS (SELECT 1 FROM teams WHERE slug = candidate) LOOP
      n := n + 1;
      candidate := base || '-' || n;
    END LOOP;
    UPDATE teams SET slug = candidate WHERE id = team.id;
  END LOOP;
END
$$;
--> statement-breakpoint
DROP INDEX "teams_slug_backfill_idx";
