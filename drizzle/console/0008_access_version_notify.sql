-- Every raise of the access version is also announced on the channel `console_access_version` (sent when the writing
-- transaction commits, not at all if it rolls back): console processes then read the version only after a change
-- instead of on every request (lib/auth/notified-version-reader.ts). The payload is empty on purpose: anyone
-- connected can notify a channel, so a notification only ever causes a read of the version, which stays the authority.
CREATE OR REPLACE FUNCTION "console"."raise_access_version"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  UPDATE "console"."access_version" SET "version" = "version" + 1;
  PERFORM pg_notify('console_access_version', '');
  RETURN NULL;
END;
$$;
