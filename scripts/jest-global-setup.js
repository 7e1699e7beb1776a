// Probes the RabbitMQ broker once before the tests. In CI the broker tests always run (and fail without a
// broker); elsewhere, with no broker reachable, they are skipped with this notice, so `npm test` works on a
// machine with only Node and npm.
const net = require('node:net');

module.exports = async function probeBroker() {
  const url = new URL(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
  const reachable = await new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 5672) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
  process.env.CMS_BROKER_TESTS = reachable || process.env.CI ? 'run' : 'skip';
  if (!reachable) {
    console.warn(
      process.env.CI
        ? `\nRabbitMQ is not reachable at ${url.host}: the broker tests will fail.\n`
        : `\nRabbitMQ is not reachable at ${url.host}: the broker tests (AMQP adapter, distributed mode) are skipped. Start a broker or set AMQP_URL to run them.\n`,
    );
  }
};
