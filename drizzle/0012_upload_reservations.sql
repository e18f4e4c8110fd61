-- A registration closes its upload to further PUTs before it inspects the bytes (see FilesService).
-- Open uploads reserve quota by a query over pending_uploads under the team_storage row lock: no trigger.
ALTER TABLE "pending_uploads" ADD COLUMN "closed_at" timestamp with time zone;
