/** The part of a share's view that is the same for pastes and files: its access and its age. */

/** The fields of a share record the facts are read from. */
type FactSource<Remark> = {
  remark: Remark;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  created_at: string;
};

/**
 * A share's remark, whether it has a password (never the hash), expiry, view limit, views so far
 * and creation time, in the order the views list them.
 */
export function shareFacts<Remark>(rec: FactSource<Remark>, views: number) {
  return {
    remark: rec.remark,
    has_password: rec.password_hash !== null,
    expires_at: rec.expires_at,
    max_views: rec.max_views,
    views,
    created_at: rec.created_at,
  };
}
