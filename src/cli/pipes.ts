/**
 * A reader that goes away early (`recipe run ... | head`) ends the program quietly, with the exit code it
 * already had, instead of an unhandled EPIPE and a stack trace. Other stream errors are still thrown.
 */
export function endQuietlyOnClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}
