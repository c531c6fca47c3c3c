// Fills a throwaway warehouse with synthetic data straight through DuckDB SQL (seconds, no emulator), to
// measure `reporter-etl report` on large periods: node bench/fill-report-warehouse.mjs DIR [SESSIONS] [DAYS]
// writes DIR/warehouse.duckdb with SESSIONS sessions (default 100,000) of 10 messages each over DAYS days
// (default 7) ending 2026-11-21T00:00Z, with labels and sessionData. Needs `npm run build` first.
import { openWarehouse } from '../dist/src/warehouse/open-warehouse.js';

const [dir, sessionsArg = '100000', daysArg = '7'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/fill-report-warehouse.mjs DIR [SESSIONS] [DAYS]');
  process.exit(2);
}
const sessions = Number(sessionsArg);
const days = Number(daysArg);
const end = Date.parse('2026-11-21T00:00:00Z');
const start = end - days * 86_400_000;
const step = Math.floor((end - start) / sessions);

const w = await openWarehouse({ path: `${dir}/warehouse.duckdb` });
const started = Date.now();
const channels = "['telegram','chatwidget','viber','vk','chatapi','resterisk']";
await w.query(
  `INSERT INTO sessions
   SELECT 'shop-bot', 's-' || i, 'shop-bot-main', ${channels}[i % 6 + 1], 'c-' || (i % 40000),
          'Имя ' || (i % 500), 'Фамилия', 'user' || i, to_timestamp(($start + i * $step) / 1000),
          60000 + (i % 3600) * 1000, 10, 'Как оформить заказ ' || i || '?', 'Спасибо', i % 8 = 0,
          CASE WHEN i % 3 = 0 THEN 'ok' END, NULL, NULL, now()
   FROM range($n) t(i)`,
  { start, step, n: sessions },
);
await w.query(
  `INSERT INTO messages
   SELECT 'shop-bot', 'q-' || m, 's-' || (m // 10), to_timestamp(($start + (m // 10) * $step + (m % 10) * 30000) / 1000),
          'Вопрос номер ' || m || ': где мой заказ и когда его доставят? 🙂',
          'Ваш заказ передан в доставку. Курьер позвонит за час до приезда; отследить можно в личном кабинете.',
          NULL, ['/Order/Status','/Delivery/When','/CatchAll','/Payment/Card'][m % 4 + 1], 'order', 0.5 + (m % 50) / 100.0,
          CASE (m // 10) % 6 WHEN 0 THEN 'DELIVERED' WHEN 2 THEN 'READ' WHEN 3 THEN 'READ' END,
          false, CASE WHEN m % 97 = 0 THEN 'проверить' END, 120 + m % 300, NULL, NULL, m % 10 = 9 AND (m // 10) % 8 = 0, now(),
          ${channels}[(m // 10) % 6 + 1], NULL, NULL
   FROM range($n) t(m)`,
  { start, step, n: sessions * 10 },
);
await w.query(
  `INSERT INTO session_labels SELECT 'shop-bot', 's-' || i, 1 + i % 3, ['Жалоба','Вернуться позже','VIP'][i % 3 + 1]
   FROM range($n) t(i) WHERE i % 5 = 0`,
  { n: sessions },
);
await w.query(
  `INSERT INTO message_labels SELECT l.*, m."timestamp", m.channel_type
   FROM (SELECT 'shop-bot' AS project, 'q-' || m AS question_id, 10 + m % 2 AS label_id,
           ['Неверно','Верно'][m % 2 + 1] AS label_name, 'Качество ответа' AS group_name
         FROM range($n) t(m) WHERE m % 7 = 0) AS l
   JOIN messages AS m ON m.project = l.project AND m.question_id = l.question_id`,
  { n: sessions * 10 },
);
await w.query(
  `INSERT INTO session_data
   SELECT 'shop-bot', 's-' || i, 'city', ['Москва','Казань','Омск'][i % 3 + 1] FROM range($n) t(i)
   UNION ALL SELECT 'shop-bot', 's-' || i, 'plan', ['free','pro'][i % 2 + 1] FROM range($n) t(i)`,
  { n: sessions },
);
await w.query(
  `INSERT INTO session_label_catalogue VALUES ('shop-bot', 1, 'Жалоба', 1), ('shop-bot', 2, 'Вернуться позже', 2), ('shop-bot', 3, 'VIP', 3)`,
);
await w.query(
  `INSERT INTO message_label_catalogue VALUES ('shop-bot', 10, 'Верно', 1, 1, 'Качество ответа', 1), ('shop-bot', 11, 'Неверно', 2, 1, 'Качество ответа', 1)`,
);
const [counts] = await w.query(
  'SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM messages) AS messages',
);
await w.close();
console.log(
  `filled ${dir}/warehouse.duckdb: ${counts.sessions} sessions, ${counts.messages} messages, ` +
    `${new Date(start).toISOString()} – ${new Date(end).toISOString()}, in ${Date.now() - started} ms`,
);
