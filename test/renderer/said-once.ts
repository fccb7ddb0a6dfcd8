// One fact, said once: a view that shows a failed upload says what becomes of the results in
// one sentence, not in each of the failure's words, the notice and the alert.

/** The sentences of a text that say the results are kept (waiting here, sent later, not lost). */
export const resultsKeptSentences = (text: string): string[] =>
  text.split(/(?<=\.)/).filter((s) => /keeps? the results|results stay|results wait|nothing is lost/i.test(s));
