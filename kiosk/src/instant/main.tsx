import { kioskAddress } from '../shared/to-kiosk.ts'

// On-screen scratch tickets are sold by the one kiosk, in its "Raspaditas" section (issue 13 point 1).
location.replace(kioskAddress(location.search, 'raspaditas'))
