// `reporter-etl label-messages`: the message twin of label-sessions. The query returns question_id, the
// label is a message label (in a group); everything else (dry run, batches, label_writes) is shared.
import type { Command } from '../command.js';
import { createLabelWriteCommand } from './label-sessions.js';

export const labelMessagesCommand: Command = createLabelWriteCommand('message');
