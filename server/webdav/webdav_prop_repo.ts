/**
 * WebDAV dead properties, one KV entry per resource: `["webdav_props", mount, parent, name]`
 * holding `{ "{ns}name": "<serialised element/>" }`. Keying by the parent's storage key lets a
 * Depth 1 PROPFIND read a folder's children with one prefix listing, and a subtree (a folder
 * being deleted, copied or moved) is the entries whose parent is the folder or lies below it.
 */
import { keys } from "../kv/keys.ts";

/** Property values by Clark name (`{ns}name`), each a self-contained XML element. */
export type DeadProps = Record<string, string>;

/** At most this many bytes of serialised properties per resource (a KV value holds 64 KiB). */
export const MAX_PROPS_BYTES = 60_000;
const BATCH = 10;

function split(key: string): [string, string] {
  const i = key.lastIndexOf("/");
  return i < 0 ? ["", key] : [key.slice(0, i), key.slice(i + 1)];
}

function join(parent: string, name: string): string {
  return parent ? `${parent}/${name}` : name;
}

export class WebdavPropRepo {
  constructor(private kv: Deno.Kv) {}

  private keyOf(mountId: string, key: string) {
    const [parent, name] = split(key);
    return keys.webdavProps(mountId, parent, name);
  }

  /** The properties of one resource (empty when none) with the entry's versionstamp. */
  async get(
    mountId: string,
    key: string,
  ): Promise<{ props: DeadProps; versionstamp: string | null }> {
    const e = await this.kv.get<DeadProps>(this.keyOf(mountId, key));
    return { props: e.value ?? {}, versionstamp: e.versionstamp };
  }

  /** Replaces one resource's properties if unchanged since `versionstamp`; false on a race. */
  async put(
    mountId: string,
    key: string,
    props: DeadProps,
    versionstamp: string | null,
  ): Promise<boolean> {
    const k = this.keyOf(mountId, key);
    const op = this.kv.atomic().check({ key: k, versionstamp });
    if (Object.keys(props).length === 0) op.delete(k);
    else op.set(k, props);
    return (await op.commit()).ok;
  }

  /** The properties of a folder's direct children, by name. */
  async listChildren(mountId: string, dirKey: string): Promise<Map<string, DeadProps>> {
    const out = new Map<string, DeadProps>();
    const it = this.kv.list<DeadProps>({ prefix: keys.webdavPropsPrefix(mountId, dirKey) });
    for await (const e of it) {
      const name = e.key[3];
      if (typeof name === "string" && name !== "") out.set(name, e.value);
    }
    return out;
  }

  /** Every entry of the resource at `key` and (when `deep`) below it, as [storage key, props]. */
  private async *tree(mountId: string, key: string, deep: boolean) {
    const own = await this.kv.get<DeadProps>(this.keyOf(mountId, key));
    if (own.value) yield [key, own.value] as const;
    if (!deep) return;
    const lists = key === ""
      ? [this.kv.list<DeadProps>({ prefix: keys.webdavPropsPrefix(mountId) })]
      : [
        this.kv.list<DeadProps>({ prefix: keys.webdavPropsPrefix(mountId, key) }),
        this.kv.list<DeadProps>({
          start: keys.webdavPropsPrefix(mountId, `${key}/`),
          end: keys.webdavPropsPrefix(mountId, `${key}0`),
        }),
      ];
    for (const it of lists) {
      for await (const e of it) {
        const [, , parent, name] = e.key as [string, string, string, string];
        if (name === "") continue;
        yield [join(parent, name), e.value] as const;
      }
    }
  }

  /** Deletes the properties of a resource and, when `deep`, of everything below it. */
  async deleteTree(mountId: string, key: string, deep = true): Promise<void> {
    const found: string[] = [];
    for await (const [k] of this.tree(mountId, key, deep)) found.push(k);
    for (let i = 0; i < found.length; i += BATCH) {
      const op = this.kv.atomic();
      for (const k of found.slice(i, i + BATCH)) op.delete(this.keyOf(mountId, k));
      await op.commit();
    }
  }

  /** Copies the properties of a resource (and, when `deep`, its subtree) to another place. */
  async copyTree(
    from: { mountId: string; key: string },
    to: { mountId: string; key: string },
    deep: boolean,
  ): Promise<void> {
    const batch: [string, DeadProps][] = [];
    const flush = async () => {
      const op = this.kv.atomic();
      for (const [k, v] of batch) op.set(this.keyOf(to.mountId, k), v);
      await op.commit();
      batch.length = 0;
    };
    for await (const [k, v] of this.tree(from.mountId, from.key, deep)) {
      const rest = k.slice(from.key.length).replace(/^\//, "");
      batch.push([rest ? join(to.key, rest) : to.key, v]);
      if (batch.length === BATCH) await flush();
    }
    if (batch.length) await flush();
  }
}
