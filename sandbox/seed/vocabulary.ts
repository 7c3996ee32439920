// Word lists the seed generator draws realistic-looking, plainly fictional data from. Emails and websites use the
// reserved example domains; phone numbers use the 555-01xx range reserved for fiction.

export const firstNames = [
  "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William",
  "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Christopher", "Lisa",
  "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Margaret", "Wei", "Priya", "Carlos", "Sofia",
  "Mohammed", "Aisha", "Hiroshi", "Yuki", "Olumide", "Ngozi", "Mateo", "Valentina", "Dmitri", "Anastasia", "Liam",
  "Chloe", "Ethan", "Grace", "Noah", "Zoe", "Maximilian-Alexander", "Guadalupe",
];

export const lastNames = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez",
  "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez",
  "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Nguyen", "Patel", "Kim",
  "Chen", "Okafor", "Yamamoto", "Kowalski", "O'Brien", "Van der Berg", "Fitzgerald-Montgomery", "Abernathy",
  "Santos", "Ivanova", "Haddad", "Mensah",
];

export const middleNames = ["A.", "B.", "J.", "K.", "M.", "R.", "Lee", "Marie", "Ann", "James", "Jose", "Wei"];

export const occupations = [
  "Software engineer", "Registered nurse", "Teacher", "Accountant", "Electrician", "Sales manager", "Pharmacist",
  "Graphic designer", "Truck driver", "Chef", "Attorney", "Physician", "Real estate agent", "Student", "Retired",
  "Small business owner", "Mechanical engineer", "Dental hygienist", "Financial analyst", "Photographer",
];

/** City, state, and a postal code prefix that belongs to that city. */
export const usCities: ReadonlyArray<readonly [string, string, string]> = [
  ["New York", "NY", "100"], ["Brooklyn", "NY", "112"], ["Los Angeles", "CA", "900"], ["San Francisco", "CA", "941"],
  ["Chicago", "IL", "606"], ["Houston", "TX", "770"], ["Austin", "TX", "787"], ["Phoenix", "AZ", "850"],
  ["Philadelphia", "PA", "191"], ["San Diego", "CA", "921"], ["Dallas", "TX", "752"], ["Seattle", "WA", "981"],
  ["Denver", "CO", "802"], ["Boston", "MA", "021"], ["Atlanta", "GA", "303"], ["Miami", "FL", "331"],
  ["Minneapolis", "MN", "554"], ["Portland", "OR", "972"], ["Nashville", "TN", "372"], ["Columbus", "OH", "432"],
  ["Charlotte", "NC", "282"], ["Salt Lake City", "UT", "841"], ["Wilmington", "DE", "198"], ["Madison", "WI", "537"],
];

export const streetNames = [
  "Main St", "Oak Ave", "Maple Dr", "Cedar Ln", "Pine St", "Elm St", "Washington Blvd", "Lake View Rd",
  "Hillcrest Ave", "Park Pl", "Sunset Blvd", "Broadway", "Market St", "Church St", "Highland Ave", "River Rd",
  "Mill Rd", "Franklin St", "Jefferson Ave", "Lincoln Way",
];

export const unitPrefixes = ["Apt", "Suite", "Unit", "Fl"];

export const foreignCitizenships = ["CA", "MX", "GB", "IN", "CN", "DE", "BR", "NG", "JP", "FR", "KR", "PH"];

/** NAICS sectors (2022): every sector code with its official title. */
export const naicsSectors: ReadonlyArray<readonly [string, string]> = [
  ["11", "Agriculture, Forestry, Fishing and Hunting"],
  ["21", "Mining, Quarrying, and Oil and Gas Extraction"],
  ["22", "Utilities"],
  ["23", "Construction"],
  ["31", "Manufacturing"],
  ["42", "Wholesale Trade"],
  ["44", "Retail Trade"],
  ["48", "Transportation and Warehousing"],
  ["51", "Information"],
  ["52", "Finance and Insurance"],
  ["53", "Real Estate and Rental and Leasing"],
  ["54", "Professional, Scientific, and Technical Services"],
  ["55", "Management of Companies and Enterprises"],
  ["56", "Administrative and Support and Waste Management and Remediation Services"],
  ["61", "Educational Services"],
  ["62", "Health Care and Social Assistance"],
  ["71", "Arts, Entertainment, and Recreation"],
  ["72", "Accommodation and Food Services"],
  ["81", "Other Services (except Public Administration)"],
  ["92", "Public Administration"],
];

/** Industries filed under the "Other" sector (81) with their own description, prefixed "Other: " per the spec. */
export const otherIndustries = ["Pet grooming and boarding", "Coin-operated laundries", "Funeral homes", "Parking lots and garages"];

/** Business name words, and what each kind of business does (by NAICS sector). */
export const businessNameWords = [
  "Summit", "Harbor", "Blue Ridge", "Evergreen", "Ironwood", "Northstar", "Granite", "Copper", "Redwood", "Lakeside",
  "Pioneer", "Meridian", "Silverline", "Cascade", "Beacon", "Keystone", "Prairie", "Atlas", "Horizon", "Willow",
];

export const businessKinds: Readonly<Record<string, readonly string[]>> = {
  "11": ["Farms", "Orchards", "Ranch"], "21": ["Drilling", "Minerals"], "22": ["Power", "Water Co-op"],
  "23": ["Builders", "Construction", "Roofing"], "31": ["Manufacturing", "Fabrication", "Brewing Co"],
  "42": ["Supply", "Distributors"], "44": ["Outfitters", "Market", "Hardware"], "48": ["Logistics", "Freight"],
  "51": ["Software", "Media", "Labs"], "52": ["Capital", "Insurance Agency"], "53": ["Properties", "Realty"],
  "54": ["Consulting", "Design Studio", "Law Group", "Analytics"], "55": ["Holdings", "Group"],
  "56": ["Staffing", "Facility Services"], "61": ["Academy", "Learning Center"], "62": ["Family Clinic", "Home Care"],
  "71": ["Fitness", "Theater Company"], "72": ["Bistro", "Coffee Roasters", "Inn"], "81": ["Services", "Repair"],
  "92": ["Transit Authority", "Utility District"],
};

export const legalSuffixes: Readonly<Record<string, string>> = {
  ccorp: "Inc.", corp: "Corp.", scorp: "Inc.", llc: "LLC", llp: "LLP", lp: "LP", partnership: "Partners",
  nonprofit: "Foundation", trust: "Trust", estate: "Estate", soleprop: "", foreign_entity: "Ltd.", municipality: "",
};

export const ownerTitles = ["Chief Executive Officer", "President", "Chief Financial Officer", "Managing Member", "Owner", "Treasurer", "General Partner", "Trustee"];

/** Foreign incorporation jurisdictions (3 characters at most, per the spec). */
export const foreignJurisdictions = ["ONT", "BC", "NSW", "QC", "LDN", "BY"];

/** Banks of counterparties: made-up names and the first 8 digits of their routing numbers. */
export const banks: ReadonlyArray<readonly [string, string]> = [
  ["01190237", "First Harbor Bank"], ["02130986", "Empire City Bank"], ["03170412", "Keystone Savings"],
  ["04128833", "Lakeshore National"], ["05320157", "Piedmont Trust"], ["06110944", "Peachtree Federal"],
  ["07190388", "Prairie State Bank"], ["08150216", "Gateway Community Bank"], ["09190762", "North Woods Credit Union"],
  ["10140531", "Heartland Bank"], ["11170295", "Lone Star Bank"], ["12140619", "Golden Gate Bank"],
];

/** The ABA routing number with its check digit: 3, 7, 1 weights over the nine digits sum to a multiple of 10. */
export function routingNumber(firstEight: string): string {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(firstEight[i]), 0);
  return `${firstEight}${(10 - (sum % 10)) % 10}`;
}

export const achDescriptions = ["PAYROLL", "VENDOR PMT", "INVOICE", "RENT", "UTILITIES", "REFUND", "TRANSFER", "DIVIDEND", "INSURANCE", "SUBSCRIPT", "TUITION", "LOAN PMT"];

export const transferDescriptions = [
  "Monthly operating transfer", "Payroll funding", "Treasury rebalancing", "Vendor settlement", "Intercompany loan",
  "Reserve top-up", "Card program funding", "Escrow release", "Tax payment reserve", "Investor distribution",
];

export const sweepNetworks = ["IntraFi ICS", "IntraFi CDARS", "StoneCastle FICA", "R&T Deposit Solutions"];

export const userAgents = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  "okhttp/4.12.0",
];
