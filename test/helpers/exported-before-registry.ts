// The tables the Parquet lake and ClickHouse exported before the table registry (src/destinations/lake-tables.ts's
// hand list of 2026-11-26), in its order: the registry must still export each of them, first and in order.
export const EXPORTED_BEFORE_REGISTRY: readonly string[] = [
  'sessions',
  'messages',
  'message_labels',
  'message_status_history',
  'session_labels',
  'session_data',
  'clients',
  'experiments',
  'session_label_catalogue',
  'message_label_catalogue',
  'chatapi_messages',
  'chatapi_unread_counts',
];
