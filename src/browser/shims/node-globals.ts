// The Node globals hrmock's own modules use, for the browser build, which imports them into
// exactly those modules: made global, they would fool libraries (faker, yaml) that probe for
// `typeof Buffer` and would then call what is not here.

const encoder = new TextEncoder();

/** `Buffer.byteLength(text)`: the UTF-8 length, as the URL limit counts it. */
export const Buffer = {
  byteLength: (text: string): number => encoder.encode(text).length,
};

/** `process.stderr.write(text)`: the unexpected-error report, to the console instead. */
export const process = {
  stderr: {
    write: (text: string): boolean => {
      console.error(text.replace(/\n$/, ''));
      return true;
    },
  },
};
