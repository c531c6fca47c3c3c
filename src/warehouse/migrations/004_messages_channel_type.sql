-- 004_messages_channel_type: each message carries its own channel (lower case, as sessions.channel_type),
-- so the statistics count messages per channel and apply --channel without joining the 10M-row messages
-- table to sessions. The sync sets it from the channelType of messages/filter; rows loaded before this
-- migration take their session's channel (NULL where the session is not in the warehouse).
ALTER TABLE messages ADD COLUMN channel_type VARCHAR;

UPDATE messages AS m SET channel_type = s.channel_type
FROM sessions AS s
WHERE s.project = m.project AND s.session_id = m.session_id;
