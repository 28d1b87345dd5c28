// The configured LLM judge as a task sees it (config `tasks.judge`): the client's answers in the runner's terms,
// usage as one token count. No base URL configured: no judge.
import type { TasksConfig } from '../config/config.js';
import { askJudge, proposeCriteria, reflect, type JudgeConfig, type Usage } from './judge-client.js';
import type { TaskJudge } from './runner-deps.js';

export function taskJudge(cfg: TasksConfig['judge'], env: NodeJS.ProcessEnv): TaskJudge | null {
  if (!cfg.base_url.trim()) return null;
  const jc: JudgeConfig = {
    baseUrl: cfg.base_url.trim(),
    model: cfg.model,
    apiKeyEnv: cfg.api_key_env,
    timeoutS: cfg.timeout_s,
    maxRetries: cfg.max_retries,
    temperature: cfg.temperature,
  };
  const tokens = (u: Usage) => u.promptTokens + u.completionTokens;
  return {
    async ask(req, signal) {
      const v = await askJudge(jc, req, { env, signal });
      return {
        continuation: v.continuation_prompt,
        risk: v.continuation_prompt_risk,
        complete: v.task_complete,
        reason: v.task_complete_reason,
        confidence: v.confidence,
        parsedBy: v.parsedBy,
        tokens: tokens(v.usage),
      };
    },
    async propose(goal, signal) {
      const p = await proposeCriteria(jc, goal, { env, signal });
      return { success: p.success, failure: p.failure, tokens: tokens(p.usage) };
    },
    async reflect(input, signal) {
      const r = await reflect(jc, input, { env, signal });
      return { goalAchieved: r.goal_achieved, progress: r.progress, looping: r.looping, suggestions: r.suggestions, tokens: tokens(r.usage) };
    },
  };
}
