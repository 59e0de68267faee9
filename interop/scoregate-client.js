#!/usr/bin/env node
// A Node.js orchestrator and agent for scoregate, speaking Celery through celery-node.
//
// It submits one job (task `scoregate.control.submit` on queue `control`, one keyword
// argument `body`) whose loop re-runs an agent task served here, on AGENT_QUEUE. Each
// agent task gets `job_id`, `iteration`, `query`, `previous_content` and `feedback`;
// celery-node does not honour Celery links, so the answer goes back explicitly as
// `scoregate.control.agent_result` with `output`, `job_id` and `iteration`.
//
// celery-node ignores `link_error` too: a handler that throws only marks its own task
// FAILURE, and scoregate never hears of it, so the job would sit in `awaiting_agent`
// until SCOREGATE_AGENT_TIMEOUT_S (30 minutes by default). Every agent that is not a
// Python Celery task must catch its own errors and send `scoregate.control.agent_error`
// (`job_id`, `iteration`, `error_type`, `message`): `serveAgent` below does both for any
// handler, sync or async. The job then retries the agent and is escalated (or failed)
// within seconds, with `on_loop_exit(reason="agent_failed")`.
//
// Usage:
//   node scoregate-client.js --broker redis://127.0.0.1:6379/0 --query "..." --content "..."
//     [--backend URL] [--hard-not-contains WORD] [--agent-queue NAME] [--agent-task NAME]
//     [--protocol 1|2] [--serve-seconds N] [--key IDEMPOTENCY_KEY] [--result-timeout S]
//     [--agent-throws MESSAGE]
//
// It prints one JSON object per line on stdout: {"event": "submitted", "job_id": ...} once,
// when the submit task's result is known or --result-timeout seconds (default 15) have
// passed (job_id is null unless the workers keep that result: then find the job by its
// idempotency key); {"event": "agent_task", ...} per agent task answered, or
// {"event": "agent_error", ...} per agent task that threw (--agent-throws makes every one
// throw that message, to try the failure path). The agent is served from the start, so
// agent events may come before "submitted" (a job answered within --result-timeout):
// read the lines by their "event", not their order. It serves the agent until
// --serve-seconds pass (default 300) or it is sent SIGTERM / SIGINT. --help prints the
// options.
"use strict";

const crypto = require("crypto");

const USAGE = "usage: node scoregate-client.js --broker URL --query TEXT --content TEXT [options]";
const HELP = `${USAGE}

Submits one scoregate job through Celery and serves its agent task (see the header of this
file). Options:
  --broker URL             the Celery broker (required), e.g. redis://127.0.0.1:6379/0
  --query TEXT             the request the answer is for (required)
  --content TEXT           the first answer (required)
  --backend URL            the result backend (default: the broker)
  --hard-not-contains WORD a hard constraint: the answer must not contain WORD
  --agent-queue NAME       the queue the agent is served on (default nodeagents)
  --agent-task NAME        the agent task's name (default nodeagent.write)
  --threshold X            the loop's accept threshold (default 0.6)
  --max-iterations N       the loop's iterations (default 3)
  --protocol 1|2           the Celery message protocol (default 2)
  --serve-seconds N        how long to serve the agent (default 300)
  --key KEY                the job's idempotency key (default node-<uuid>)
  --result-timeout S       how long to wait for the submit task's result (default 15)
  --agent-throws MESSAGE   make every agent task throw MESSAGE (the failure path)
  --help, -h               this text`;

// celery-node is loaded when it is needed, so that --help works before `npm ci`.
function celeryNode() {
  return require("celery-node");
}

function parseArgs(argv) {
  const opts = {
    agentQueue: "nodeagents",
    agentTask: "nodeagent.write",
    protocol: 2,
    serveSeconds: 300,
    threshold: 0.6,
    maxIterations: 3,
    resultTimeout: 15,
  };
  const names = {
    "--broker": "broker",
    "--backend": "backend",
    "--query": "query",
    "--content": "content",
    "--hard-not-contains": "hardNotContains",
    "--agent-queue": "agentQueue",
    "--agent-task": "agentTask",
    "--protocol": "protocol",
    "--serve-seconds": "serveSeconds",
    "--threshold": "threshold",
    "--max-iterations": "maxIterations",
    "--key": "key",
    "--result-timeout": "resultTimeout",
    "--agent-throws": "agentThrows",
  };
  if (argv.includes("--help") || argv.includes("-h")) {
    return { help: true };
  }
  for (let i = 0; i < argv.length; i += 2) {
    const name = names[argv[i]];
    if (!name || i + 1 >= argv.length) {
      throw new Error(`unknown option or missing value: ${argv[i]} (--help lists them)\n${USAGE}`);
    }
    opts[name] = argv[i + 1];
  }
  for (const required of ["broker", "query", "content"]) {
    if (!opts[required]) throw new Error(`--${required} is required\n${USAGE}`);
  }
  opts.protocol = Number(opts.protocol);
  if (opts.protocol !== 1 && opts.protocol !== 2) {
    throw new Error(`--protocol must be 1 or 2, got ${opts.protocol}`);
  }
  opts.serveSeconds = Number(opts.serveSeconds);
  opts.threshold = Number(opts.threshold);
  opts.maxIterations = Number(opts.maxIterations);
  opts.resultTimeout = Number(opts.resultTimeout);
  opts.backend = opts.backend || opts.broker;
  opts.key = opts.key || `node-${crypto.randomUUID()}`;
  return opts;
}

function emit(event, fields) {
  process.stdout.write(JSON.stringify({ event, ...fields }) + "\n");
}

// The job body every Celery client sends (README, "From another language").
function jobBody(opts) {
  const constraints = [];
  if (opts.hardNotContains) {
    constraints.push({ kind: "not_contains", value: opts.hardNotContains, hard: true });
  }
  return {
    request: { query: opts.query, content: opts.content, constraints },
    loop: { enabled: true, threshold: opts.threshold, max_iterations: opts.maxIterations },
    agent: { task: opts.agentTask, queue: opts.agentQueue },
    idempotency_key: opts.key,
  };
}

// The agent: revise the previous output by dropping the forbidden word the feedback names.
function revise(kwargs, opts) {
  if (opts.agentThrows) throw new Error(opts.agentThrows);
  let content = String(kwargs.previous_content || "");
  if (opts.hardNotContains) {
    content = content.split(opts.hardNotContains).join("").replace(/\s+/g, " ").trim();
  }
  return content || "A revised answer.";
}

// The limits scoregate puts on an agent error report (longer is refused, not cut).
const MAX_ERROR_TYPE = 200;
const MAX_ERROR_MESSAGE = 10000;

// What `scoregate.control.agent_error` takes from a thrown value (an Error or anything).
function errorReport(err) {
  const type = err instanceof Error && err.name ? err.name : "Error";
  const message = err instanceof Error ? err.message : String(err);
  return {
    error_type: type.slice(0, MAX_ERROR_TYPE),
    message: message.slice(0, MAX_ERROR_MESSAGE),
  };
}

// Serve `taskName` with `handler(kwargs)` (its return value, or a promise of it, is the
// answer) and report both outcomes to scoregate: the answer as `agent_result`, an error
// as `agent_error`, since celery-node would tell scoregate of neither.
function serveAgent(worker, control, taskName, handler) {
  worker.register(taskName, async (kwargs) => {
    const where = { job_id: kwargs.job_id, iteration: kwargs.iteration };
    let output;
    try {
      output = await handler(kwargs);
      if (output === undefined || output === null) {
        // JSON.stringify would drop an undefined `output`: say what went wrong instead
        throw new TypeError(`the agent handler returned ${output}, not an answer`);
      }
    } catch (err) {
      const report = { ...where, ...errorReport(err) };
      control.sendTask("scoregate.control.agent_error", [], report);
      emit("agent_error", report);
      throw err; // the task is still FAILURE in celery-node's own records
    }
    control.sendTask("scoregate.control.agent_result", [], { output, ...where });
    emit("agent_task", { ...where, output });
    return output;
  });
}

function client(opts, queue) {
  const c = celeryNode().createClient(opts.broker, opts.backend, queue);
  c.conf.TASK_PROTOCOL = opts.protocol;
  return c;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(HELP + "\n");
    return;
  }
  const control = client(opts, "control");
  const worker = celeryNode().createWorker(opts.broker, opts.backend, opts.agentQueue);

  serveAgent(worker, control, opts.agentTask, (kwargs) => revise(kwargs, opts));
  worker.start();

  const submitted = control.sendTask("scoregate.control.submit", [], { body: jobBody(opts) });
  let jobId = null;
  try {
    // The submit task returns the job id when the workers keep results (a result backend).
    const result = await submitted.get(opts.resultTimeout * 1000);
    jobId = typeof result === "string" ? result : null; // {} after the timeout
  } catch (err) {
    jobId = null; // the task failed: look the job up by its idempotency key
  }
  emit("submitted", { job_id: jobId, idempotency_key: opts.key, protocol: opts.protocol });

  const stop = async (code) => {
    try {
      await Promise.all([worker.disconnect(), control.disconnect()]);
    } finally {
      process.exit(code);
    }
  };
  process.on("SIGTERM", () => stop(0));
  process.on("SIGINT", () => stop(0));
  setTimeout(() => stop(0), opts.serveSeconds * 1000);
}

module.exports = { serveAgent, errorReport };

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`scoregate-client: ${err.message}\n`);
    process.exit(2);
  });
}
