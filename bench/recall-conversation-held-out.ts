/**
 * Conversational-memory recall set, held-out half (bench/recall-conversation.ts): the same
 * shape and mix as the dev half (bench/recall-conversation-set.ts), written after and apart
 * from it — other people, projects, topics and phrasings. Never tuned on: fusion settings
 * are chosen on the dev half, and this half's figure is reported once for the choice.
 */
import type { LabelledConversation } from "./recall-conversation-set";

/** The held-out half: never tuned on. */
export const HELD_OUT_CONVERSATIONS: LabelledConversation[] = [];
