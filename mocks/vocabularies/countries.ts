/**
 * Per country: the language people there speak natively and a phone pattern
 * (`#` any digit, `N` a digit from 2 to 9, as North American area codes need).
 */
export const COUNTRIES = {
  France: { language: 'French', phone: '+33 6 ## ## ## ##' },
  Germany: { language: 'German', phone: '+49 15# #######' },
  'United Kingdom': { language: 'English', phone: '+44 7### ######' },
  Spain: { language: 'Spanish', phone: '+34 6## ### ###' },
  Italy: { language: 'Italian', phone: '+39 3## ### ####' },
  Netherlands: { language: 'Dutch', phone: '+31 6 ########' },
  Belgium: { language: 'French', phone: '+32 4## ## ## ##' },
  Portugal: { language: 'Portuguese', phone: '+351 9## ### ###' },
  Switzerland: { language: 'German', phone: '+41 7# ### ## ##' },
  Ireland: { language: 'English', phone: '+353 8# ### ####' },
  Sweden: { language: 'Swedish', phone: '+46 7# ### ## ##' },
  Denmark: { language: 'Danish', phone: '+45 ## ## ## ##' },
  Poland: { language: 'Polish', phone: '+48 ### ### ###' },
  Austria: { language: 'German', phone: '+43 6## #######' },
  Czechia: { language: 'Czech', phone: '+420 ### ### ###' },
  'United States': { language: 'English', phone: '+1 N##-N##-####' },
  Canada: { language: 'English', phone: '+1 N##-N##-####' },
} as const;

export type Country = keyof typeof COUNTRIES;
