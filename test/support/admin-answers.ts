import type { JournalEntry } from '../../src/http/admin/journal.ts';
import type { Scenario } from '../../src/http/admin/scenarios.ts';

// The admin API's answers (outside the contract), under short names, for tests that read them.

/** `POST /_mock/scenarios`: the scenario added. */
export type ScenarioAdded = { code: number; message: string; data: Scenario };

/** `GET /_mock/scenarios` and `DELETE /_mock/scenarios[/:id]`: the scenarios in force. */
export type ScenarioList = { code: number; message: string; data: Scenario[] };

/** `GET /_mock/requests`: the journal, oldest first. */
export type JournalPage = {
  code: number;
  message: string;
  data: JournalEntry[];
  meta: { total: number; dropped: number };
};
