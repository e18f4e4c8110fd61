-- Plans are data: their limits feed API-key rate limits and storage quotas.
INSERT INTO "plans" ("id", "name", "api_requests_per_minute", "storage_quota_bytes", "max_members", "is_default") VALUES
  ('free', 'Free', 120, 5368709120, 5, true),
  ('pro', 'Pro', 1200, 107374182400, 25, false),
  ('label', 'Label', 6000, 1099511627776, 250, false),
  ('enterprise', 'Enterprise', 1000000, 10995116277760, 5000, false)
ON CONFLICT ("id") DO NOTHING;
