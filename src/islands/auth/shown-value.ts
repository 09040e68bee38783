/**
 * What a form's field shows before its island hydrated: typed on a slow phone, or filled in by a
 * password manager. React keeps it on the page but its state starts empty (login would then say
 * 이메일을 입력해주세요); the forms take it over when they mount.
 */
export function shownValue(form: HTMLFormElement | null, name: string): string {
  const field = form?.elements.namedItem(name);
  return field instanceof HTMLInputElement ? field.value : '';
}
