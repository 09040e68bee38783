import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { rowTime } from '../jobs/clock';

export interface StaffMember {
  id: number;
  email: string | null;
  name: string | null;
}

/**
 * Gives (role 'staff') or takes back (role 'user') the console of the account with this email
 * (`npm run staff -- add|remove EMAIL`); null when no live account has the email.
 */
export async function setStaffRole(db: Db, email: string, staff: boolean): Promise<StaffMember | null> {
  const [row] = await db
    .update(users)
    .set({ role: staff ? 'staff' : 'user', updatedAt: rowTime() })
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()} and ${users.deletedAt} is null`)
    .returning({ id: users.id, email: users.email, name: users.name });
  return row ?? null;
}

/** Every staff account, by id. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  return db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.role, 'staff')).orderBy(asc(users.id));
}
