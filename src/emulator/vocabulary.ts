// The emulator's word lists: intents with their phrases (Cyrillic, Latin and emoji), names, labels,
// sessionData keys and the channel mix of the reference. Pure data; the generator picks from it by hash.

export const CHANNELS = ['telegram', 'chatwidget', 'viber', 'vk', 'chatapi', 'resterisk'] as const;
export type Channel = (typeof CHANNELS)[number];
/** Share of sessions per channel, in the order of CHANNELS. */
export const CHANNEL_WEIGHTS = [0.35, 0.25, 0.12, 0.1, 0.1, 0.08] as const;

/** Channels whose messages carry a delivery status, and which statuses each may take. */
export const STATUS_CHANNELS: Readonly<Record<string, { sent: boolean; read: boolean }>> = {
  telegram: { sent: true, read: false },
  viber: { sent: false, read: true },
  vk: { sent: true, read: true },
};

export interface Intent {
  nlpClass: string;
  questions: readonly string[];
  answer: string;
  weight: number;
}

export const INTENTS: readonly Intent[] = [
  {
    nlpClass: '/Greeting',
    questions: ['Привет', 'Здравствуйте!', 'Добрый день 👋', 'hi', 'Hello there', 'Приветики 😊'],
    answer: 'Здравствуйте! Я виртуальный помощник. Чем могу помочь?',
    weight: 14,
  },
  {
    nlpClass: '/Delivery/Status',
    questions: ['Где мой заказ?', 'Когда приедет доставка 🚚', 'Статус заказа 12345', 'Заказ ещё не пришёл'],
    answer: 'Ваш заказ в пути, курьер свяжется с вами за час до доставки.',
    weight: 12,
  },
  {
    nlpClass: '/Payment/Methods',
    questions: ['Как оплатить?', 'Можно картой?', 'Оплата при получении есть?', 'Do you accept Visa? 💳'],
    answer: 'Мы принимаем карты, СБП и оплату при получении.',
    weight: 9,
  },
  {
    nlpClass: '/Refund',
    questions: ['Хочу вернуть товар', 'Как оформить возврат?', 'Верните деньги 😡', 'refund please'],
    answer: 'Возврат оформляется в личном кабинете в течение 14 дней.',
    weight: 6,
  },
  {
    nlpClass: '/Operator',
    questions: [
      'Позовите оператора',
      'Хочу поговорить с человеком',
      'оператор!!!',
      'Соедините со специалистом 🙏',
    ],
    answer: 'Перевожу вас на оператора, пожалуйста, подождите.',
    weight: 5,
  },
  {
    nlpClass: '/Hours',
    questions: ['Во сколько вы открываетесь?', 'Режим работы', 'Вы работаете в выходные?', 'opening hours?'],
    answer: 'Мы работаем ежедневно с 9:00 до 21:00.',
    weight: 7,
  },
  {
    nlpClass: '/Address',
    questions: ['Где вы находитесь?', 'Адрес магазина', 'Как до вас добраться 🗺️'],
    answer: 'Наш адрес: Москва, ул. Примерная, д. 1.',
    weight: 5,
  },
  {
    nlpClass: '/Thanks',
    questions: ['Спасибо!', 'Благодарю 🙏', 'thanks', 'Спасибо, всё понятно 👍'],
    answer: 'Рады помочь! Хорошего дня ☀️',
    weight: 8,
  },
  {
    nlpClass: '/Goodbye',
    questions: ['Пока', 'До свидания', 'bye 👋'],
    answer: 'До свидания! Обращайтесь.',
    weight: 4,
  },
];

/** Phrases the classifier does not recognise: answered by the fallback intent. */
export const UNRECOGNISED_QUESTIONS: readonly string[] = [
  'ыыыы',
  'а у вас есть слоны? 🐘',
  'Сколько стоит доставка в Новосибирск на 3 коробки по 20 кг и можно ли в субботу',
  '???',
  'asdfgh',
  'Мне нужна помощь с чем-то странным',
  '🤔🤔🤔',
];
export const FALLBACK_CLASS = '/CatchAll';
export const FALLBACK_ANSWER = 'Извините, я не понял вопрос. Переформулируйте, пожалуйста.';

export const EVENTS: readonly string[] = ['/start', 'fileEvent', 'timeout', 'noMatch'];

export const AGENT_ANSWERS: readonly string[] = [
  'Добрый день! Оператор Анна на связи, сейчас посмотрю.',
  'Уточните, пожалуйста, номер заказа.',
  'Проверила: заказ будет у вас завтра до 18:00.',
  'Готово, возврат оформлен ✅',
  'Есть ли ещё вопросы?',
];
export const AGENTS = [
  { id: 'op-1001', firstName: 'Анна', lastName: 'Смирнова' },
  { id: 'op-1002', firstName: 'Игорь', lastName: 'Петров' },
  { id: 'op-1003', firstName: 'Maria', lastName: 'Lopez' },
] as const;

export const FIRST_NAMES: readonly string[] = [
  'Иван',
  'Мария',
  'Алексей',
  'Ольга',
  'Дмитрий',
  'Екатерина',
  'Сергей',
  'Анна',
  'John',
  'Emma',
  'Ахмед',
  'Лейла',
];
export const LAST_NAMES: readonly string[] = [
  'Иванов',
  'Петрова',
  'Сидоров',
  'Кузнецова',
  'Смирнов',
  'Попова',
  'Smith',
  'Brown',
  'Алиев',
  'Ким',
];

export interface SeedSessionLabel {
  name: string;
  weight: number;
}
export const SESSION_LABELS: readonly SeedSessionLabel[] = [
  { name: 'Успешно', weight: 10 },
  { name: 'Нужна доработка', weight: 4 },
  { name: 'Жалоба 😡', weight: 2 },
  { name: 'Спам', weight: 1 },
];

export const MESSAGE_LABEL_GROUPS: readonly { name: string; labels: readonly string[] }[] = [
  { name: 'Качество ответа', labels: ['Верно', 'Неверно', 'Частично'] },
  { name: 'Тематика', labels: ['Доставка', 'Оплата', 'Возврат'] },
];

export const SESSION_RESULTS: readonly string[] = ['RESOLVED', 'TRANSFERRED', 'ABANDONED'];

export const CITIES: readonly string[] = [
  'Москва',
  'Санкт-Петербург',
  'Казань',
  'Новосибирск',
  'Екатеринбург',
];
export const PLANS: readonly string[] = ['free', 'basic', 'premium'];
export const SOURCES: readonly string[] = ['ads', 'organic', 'referral', 'email'];
