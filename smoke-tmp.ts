import { main } from './src/main/cli/index';
main(process.argv.slice(2)).then((c) => { console.error('exit', c); });
