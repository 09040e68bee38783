/** The signup form as kept in session storage across the identity provider's redirect. */
export interface SignupDraft {
  name: string;
  mobile: string;
  email: string;
  /** The email that passed the duplicate check; a change of email needs a new check. */
  checkedEmail: string | null;
  referrerPhone: string;
  terms: boolean;
  privacy: boolean;
  marketing: boolean;
  /** The verified identity (identityVerificationId) and the name and phone it verified. */
  identityCode: string | null;
  verifiedName: string | null;
  verifiedPhone: string | null;
}

const KEY = 'signupForm';

export const emptyDraft: SignupDraft = {
  name: '', mobile: '', email: '', checkedEmail: null, referrerPhone: '', terms: false, privacy: false, marketing: false,
  identityCode: null, verifiedName: null, verifiedPhone: null,
};

/** The saved draft; passwords are never stored. Broken JSON reads as empty. */
export function loadDraft(): SignupDraft {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? { ...emptyDraft, ...(JSON.parse(raw) as Partial<SignupDraft>) } : emptyDraft;
  } catch {
    return emptyDraft;
  }
}

export function saveDraft(d: SignupDraft): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(d));
  } catch {
    /* storage full or blocked: the form still works on this page */
  }
}

/** Forgets the draft after a successful signup. */
export function clearDraft(): void {
  sessionStorage.removeItem(KEY);
}
