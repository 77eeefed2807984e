/** Word lists of the demo CRM (fictional names and companies). */
export const FIRST_NAMES = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Liam', 'Maya', 'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tara', 'Umar', 'Vera', 'Wes', 'Xia', 'Yusuf', 'Zoe'];
export const LAST_NAMES = ['Adams', 'Berg', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Lopez', 'Moreau', 'Novak', 'Okafor', 'Patel', 'Quist', 'Rossi', 'Schmidt', 'Tanaka', 'Usman', 'Varga', 'Weber', 'Xu', 'Young', 'Zimmer'];
export const COMPANY_WORDS = ['Acme', 'Blue', 'Cedar', 'Delta', 'Ember', 'Falcon', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Kestrel', 'Lumen', 'Maple', 'Nimbus', 'Orchid', 'Pioneer', 'Quartz', 'Raven', 'Summit', 'Tidal', 'Umber', 'Vertex', 'Willow', 'Zephyr'];
export const COMPANY_SUFFIXES = ['Labs', 'Systems', 'Logistics', 'Foods', 'Analytics', 'Health', 'Energy', 'Studio', 'Partners', 'Works'];
export const INDUSTRIES = ['COMPUTER_SOFTWARE', 'INFORMATION_TECHNOLOGY_AND_SERVICES', 'INTERNET', 'FINANCIAL_SERVICES', 'MARKETING_AND_ADVERTISING', 'EDUCATION_MANAGEMENT'];
export const CITIES: readonly [string, string, string][] = [['Berlin', 'BE', 'Germany'], ['Lisbon', 'Lisboa', 'Portugal'], ['Austin', 'TX', 'United States'], ['Toronto', 'ON', 'Canada'], ['Lyon', 'ARA', 'France'], ['Osaka', 'Osaka', 'Japan'], ['Nairobi', 'Nairobi', 'Kenya']];
export const LIFECYCLE = ['subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer', 'evangelist', 'other'];
export const JOB_TITLES = ['CEO', 'CTO', 'Head of Sales', 'Account Manager', 'Engineer', 'Operations Lead', 'Buyer', 'Marketing Manager'];
export const OWNERS = ['1001', '1002', '1003', '1004', '1005', '1006', '1007', '1008'];
export const TICKET_SUBJECTS = ['Cannot log in', 'Invoice question', 'Feature request', 'Data export fails', 'Slow dashboard', 'Password reset', 'Integration error', 'Billing address change'];
export const TICKET_CATEGORIES = ['PRODUCT_ISSUE', 'BILLING_ISSUE', 'FEATURE_REQUEST', 'GENERAL_INQUIRY'];
export const CALL_STATUS = ['COMPLETED', 'BUSY', 'NO_ANSWER', 'FAILED', 'CANCELED'];
export const MEETING_OUTCOMES = ['SCHEDULED', 'COMPLETED', 'RESCHEDULED', 'NO_SHOW', 'CANCELED'];
export const MAKES = ['Volvo', 'Toyota', 'Ford', 'Renault', 'Kia', 'Tesla'];
export const MODELS = ['Compact', 'Wagon', 'Van', 'Pickup', 'Sedan', 'Hatchback'];
