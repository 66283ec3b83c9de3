/**
 * Issue 26 (GEN-7, GEN-4): every device a test enrols carries a seal code and a type-approval number of its own, as
 * both shipped profiles require of the devices that sell or pay; a test of the refusal enrols one without them.
 */
let next = 0
export function sealed(): { sealCode: string; typeApprovalNo: string } {
  next += 1
  const tag = `${process.pid}-${next}`
  return { sealCode: `AJ-PRUEBA-${tag}`, typeApprovalNo: `HOM-PRUEBA-${tag}` }
}
