/**
 * Upload speed and progress: a sliding-window speed meter, the time left, their texts, and the
 * reporter that turns stage changes and byte counts into UploadProgress snapshots. A reporter can
 * map a phase onto part of the bar (a URL upload downloads over 0–49 % and uploads over 50–99 %).
 */
import type { TFunction } from "i18next";
import { formatBytes } from "../format.ts";
import type { PartsProgress, UploadProgress, UploadStage } from "./types.ts";

/**
 * Speed over a sliding time window: the bytes between the oldest and newest sample in the last
 * `windowMs`, divided by the time between them. Robust to bursty progress events.
 */
export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];

  constructor(private windowMs = 3000) {}

  /** Records that `bytes` (a running total) had been sent at time `t` (ms). */
  add(bytes: number, t: number = performance.now()): void {
    this.samples.push({ t, bytes });
    // Keep one sample older than the window as the baseline.
    while (this.samples.length > 2 && t - this.samples[1].t >= this.windowMs) this.samples.shift();
  }

  /** Bytes per second, or 0 while fewer than two samples span any time. */
  bytesPerSecond(): number {
    if (this.samples.length < 2) return 0;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const dt = last.t - first.t;
    return dt > 0 ? Math.max(0, ((last.bytes - first.bytes) / dt) * 1000) : 0;
  }

  /** Forgets every sample (a new transfer starts). */
  reset(): void {
    this.samples = [];
  }
}

/** Seconds left for `remaining` bytes at `speed` bytes/s; null when the speed is unknown. */
export function estimateSecondsLeft(remaining: number, speed: number): number | null {
  if (remaining <= 0) return 0;
  if (!(speed > 0)) return null;
  return Math.ceil(remaining / speed);
}

/** A transfer speed such as "2.4 MB/s". */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** A duration in whole seconds, e.g. "45 s", "3 min 5 s", "1 h 2 min", in the UI language. */
export function formatDuration(t: TFunction, seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t("upload.time.seconds", { s });
  if (s < 3600) return t("upload.time.minutes", { m: Math.floor(s / 60), s: s % 60 });
  return t("upload.time.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}

const FINISHING: ReadonlySet<UploadStage> = new Set(["processing", "completing", "completed"]);

/** Reports progress: stage changes and byte counts, with speed and time left filled in. */
export class ProgressReporter {
  private meter = new SpeedMeter();
  private state: UploadProgress;
  private from = 0;
  private to = 100;

  constructor(total: number, private emit?: (p: UploadProgress) => void) {
    this.state = { stage: "starting", loaded: 0, total, percent: 0, speed: 0, eta: null };
  }

  /** The latest snapshot. */
  get current(): UploadProgress {
    return this.state;
  }

  /** Starts a phase of `total` bytes (0 = unknown) shown over [from, to] % of the bar. */
  phase(from: number, to: number, total: number): void {
    this.from = from;
    this.to = to;
    this.meter.reset();
    this.state = { ...this.state, loaded: 0, total, percent: from, speed: 0, eta: null };
  }

  /** Moves to `stage`; the finishing stages fill the bar (completed to 100 %). */
  stage(stage: UploadStage): void {
    const done = FINISHING.has(stage);
    if (stage === "uploading" || stage === "downloading" || stage === "proxyDownloading") {
      this.meter.reset();
    }
    this.state = {
      ...this.state,
      stage,
      loaded: done ? this.state.total : this.state.loaded,
      percent: stage === "completed" ? 100 : done ? this.to : this.state.percent,
      eta: done ? 0 : this.state.eta,
    };
    this.emit?.(this.state);
  }

  /** Records `loaded` bytes of the phase done (a running total). */
  bytes(loaded: number): void {
    const total = this.state.total;
    const clamped = total > 0 ? Math.min(Math.max(0, loaded), total) : Math.max(0, loaded);
    this.meter.add(clamped);
    const speed = this.meter.bytesPerSecond();
    const span = this.to - this.from;
    this.state = {
      ...this.state,
      loaded: clamped,
      percent: total > 0
        ? this.from + Math.min(span, Math.floor((clamped / total) * span))
        : this.from,
      speed,
      eta: total > 0 ? estimateSecondsLeft(total - clamped, speed) : null,
    };
    this.emit?.(this.state);
  }

  /** Updates the multipart part counts. */
  parts(parts: PartsProgress): void {
    this.state = { ...this.state, parts };
    this.emit?.(this.state);
  }
}
