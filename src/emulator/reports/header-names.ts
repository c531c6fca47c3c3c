// The names a report file's header may give its columns: the API's field names (what the emulator writes by
// default, and the product's first guess), English display names, or Russian ones. The seeds show no column
// of a report file, so the emulator can write any of the three (report-shape.ts) and the product must find its
// columns by their values. Invariant: every column name of every report table has its three names.
export type HeaderLanguage = 'api' | 'display' | 'ru';
export const HEADER_LANGUAGES: readonly HeaderLanguage[] = ['api', 'display', 'ru'];

/** API name → [display name, Russian name]. */
const NAMES: Readonly<Record<string, readonly [string, string]>> = {
  questionId: ['Question ID', 'ID вопроса'],
  sessionId: ['Session ID', 'ID сессии'],
  timestamp: ['Time', 'Время'],
  channelType: ['Channel', 'Канал'],
  botId: ['Bot ID', 'ID бота'],
  clientId: ['Client ID', 'ID клиента'],
  clientName: ['Client name', 'Имя клиента'],
  question: ['Question', 'Вопрос'],
  textAnswer: ['Answer', 'Ответ'],
  event: ['Event', 'Событие'],
  nlpClass: ['Intent', 'Интент'],
  nlpState: ['State', 'Состояние'],
  confidence: ['Confidence', 'Уверенность'],
  isLivechat: ['Live chat', 'Перевод на оператора'],
  operator: ['Operator', 'Оператор'],
  status: ['Status', 'Статус'],
  labels: ['Labels', 'Метки'],
  comment: ['Comment', 'Комментарий'],
  processingTime: ['Processing time', 'Время обработки'],
  exception: ['Exception', 'Ошибка'],
  startTime: ['Start time', 'Начало'],
  duration: ['Duration', 'Длительность'],
  firstQuestion: ['First question', 'Первый вопрос'],
  lastQuestion: ['Last question', 'Последний вопрос'],
  questionCount: ['Questions', 'Число вопросов'],
  sessionResult: ['Result', 'Результат'],
  callTaskId: ['Call task ID', 'ID задачи обзвона'],
  firstName: ['First name', 'Имя'],
  lastName: ['Last name', 'Фамилия'],
  username: ['Username', 'Логин'],
  joinDate: ['Joined', 'Дата первого визита'],
  lastVisitDate: ['Last visit', 'Дата последнего визита'],
  lastSessionId: ['Last session ID', 'ID последней сессии'],
  isBlocked: ['Blocked', 'Заблокирован'],
  blockDate: ['Blocked on', 'Дата блокировки'],
  blockReason: ['Block reason', 'Причина блокировки'],
  blockedBy: ['Blocked by', 'Кем заблокирован'],
  direction: ['Direction', 'Направление'],
  phoneNumber: ['Phone number', 'Номер телефона'],
  audioFileUrl: ['Recording', 'Запись разговора'],
  messageTime: ['Message time', 'Время сообщения'],
  reaction: ['Reaction', 'Реакция'],
  reactionTime: ['Reaction time', 'Время реакции'],
  // the extra columns of report-shape.ts: the server's own numeric id of a row, a status that is not a delivery status
  messageId: ['Message ID', 'ID сообщения'],
  ticketState: ['Ticket status', 'Статус обращения'],
};

/** The column's name in `language`; a name without a translation is an error (a column added without one). */
export function headerName(name: string, language: HeaderLanguage): string {
  if (language === 'api') return name;
  const names = NAMES[name];
  if (names === undefined) throw new Error(`header-names.ts has no display name for the column ${name}`);
  return language === 'display' ? names[0] : names[1];
}
