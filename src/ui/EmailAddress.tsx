/** An e-mail address that a narrow screen breaks after its "@" (a <wbr>), rather than inside a word. */
export function EmailAddress({ value }: { value: string }) {
  const at = value.indexOf('@');
  if (at < 0) return <>{value}</>;
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  );
}
