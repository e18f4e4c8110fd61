-- Storage accounting and blob cleanup follow every change of files and pending_uploads in the same
-- transaction, whichever code makes it (an explicit delete, or a cascade from a deleted team):
-- team_storage stays exact, and every blob whose row goes is queued in blob_deletions for removal.
CREATE FUNCTION files_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO team_storage (team_id, used_bytes, file_count) VALUES (NEW.team_id, NEW.size, 1)
  ON CONFLICT (team_id) DO UPDATE
    SET used_bytes = team_storage.used_bytes + EXCLUDED.used_bytes,
        file_count = team_storage.file_count + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION files_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE team_storage
    SET used_bytes = used_bytes - OLD.size, file_count = file_count - 1
    WHERE team_id = OLD.team_id;
  INSERT INTO blob_deletions (key) VALUES (OLD.key);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- What the accounting and the blob cleanup read never changes after registration.
CREATE FUNCTION files_before_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.team_id <> OLD.team_id OR NEW.key <> OLD.key OR NEW.size <> OLD.size THEN
    RAISE EXCEPTION 'files.team_id, files.key and files.size cannot change';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- A pending upload leaves its pending key behind, and its final key too unless a registered file took it.
CREATE FUNCTION pending_uploads_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO blob_deletions (key) VALUES (OLD.key);
  IF NOT EXISTS (SELECT 1 FROM files WHERE files.key = OLD.final_key) THEN
    INSERT INTO blob_deletions (key) VALUES (OLD.final_key);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER files_after_insert AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION files_after_insert();
--> statement-breakpoint
CREATE TRIGGER files_after_delete AFTER DELETE ON files FOR EACH ROW EXECUTE FUNCTION files_after_delete();
--> statement-breakpoint
CREATE TRIGGER files_before_update BEFORE UPDATE ON files FOR EACH ROW EXECUTE FUNCTION files_before_update();
--> statement-breakpoint
CREATE TRIGGER pending_uploads_after_delete AFTER DELETE ON pending_uploads FOR EACH ROW EXECUTE FUNCTION pending_uploads_after_delete();
