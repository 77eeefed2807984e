// Fallback peak-RSS probe when /usr/bin/time is missing: writes maxRSS (kB) at exit.
const file = process.env.BENCH_MAXRSS_FILE;
if (file) {
  process.on('exit', () => {
    require('node:fs').writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
