import { kioskAddress } from '../shared/to-kiosk.ts'

// Lotto slips are sold by the one kiosk, in its "Boletos" section (issue 13 point 1).
location.replace(kioskAddress(location.search, 'boletos'))
