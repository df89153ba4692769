import type { Country } from './countries.ts';

export type City = {
  readonly name: string;
  readonly country: Country;
  readonly region: string;
  readonly postcode: string;
  readonly lat: number;
  readonly lng: number;
  readonly university: string;
  /** Overrides the country's language where a city speaks another one (Antwerp, Geneva, Montreal). */
  readonly language?: string;
};

/** City-centre coordinates (WGS 84) and a real central postcode. */
// biome-ignore format: one city per line reads as a table
export const CITIES = [
  { name: 'Paris', country: 'France', region: 'Île-de-France', postcode: '75001', lat: 48.8566, lng: 2.3522, university: 'Sorbonne Université' },
  { name: 'Lyon', country: 'France', region: 'Auvergne-Rhône-Alpes', postcode: '69002', lat: 45.764, lng: 4.8357, university: 'Université Claude Bernard Lyon 1' },
  { name: 'Marseille', country: 'France', region: "Provence-Alpes-Côte d'Azur", postcode: '13001', lat: 43.2965, lng: 5.3698, university: 'Aix-Marseille Université' },
  { name: 'Toulouse', country: 'France', region: 'Occitanie', postcode: '31000', lat: 43.6047, lng: 1.4442, university: 'Université Toulouse Capitole' },
  { name: 'Bordeaux', country: 'France', region: 'Nouvelle-Aquitaine', postcode: '33000', lat: 44.8378, lng: -0.5792, university: 'Université de Bordeaux' },
  { name: 'Lille', country: 'France', region: 'Hauts-de-France', postcode: '59000', lat: 50.6292, lng: 3.0573, university: 'Université de Lille' },
  { name: 'Nantes', country: 'France', region: 'Pays de la Loire', postcode: '44000', lat: 47.2184, lng: -1.5536, university: 'Nantes Université' },
  { name: 'Berlin', country: 'Germany', region: 'Berlin', postcode: '10117', lat: 52.52, lng: 13.405, university: 'Humboldt-Universität zu Berlin' },
  { name: 'Munich', country: 'Germany', region: 'Bavaria', postcode: '80331', lat: 48.1351, lng: 11.582, university: 'Technische Universität München' },
  { name: 'Hamburg', country: 'Germany', region: 'Hamburg', postcode: '20095', lat: 53.5511, lng: 9.9937, university: 'Universität Hamburg' },
  { name: 'Frankfurt', country: 'Germany', region: 'Hesse', postcode: '60311', lat: 50.1109, lng: 8.6821, university: 'Goethe-Universität Frankfurt' },
  { name: 'Cologne', country: 'Germany', region: 'North Rhine-Westphalia', postcode: '50667', lat: 50.9375, lng: 6.9603, university: 'Universität zu Köln' },
  { name: 'London', country: 'United Kingdom', region: 'England', postcode: 'EC1A 1BB', lat: 51.5074, lng: -0.1278, university: 'University College London' },
  { name: 'Manchester', country: 'United Kingdom', region: 'England', postcode: 'M1 1AE', lat: 53.4808, lng: -2.2426, university: 'University of Manchester' },
  { name: 'Edinburgh', country: 'United Kingdom', region: 'Scotland', postcode: 'EH1 1YZ', lat: 55.9533, lng: -3.1883, university: 'University of Edinburgh' },
  { name: 'Bristol', country: 'United Kingdom', region: 'England', postcode: 'BS1 4DJ', lat: 51.4545, lng: -2.5879, university: 'University of Bristol' },
  { name: 'Madrid', country: 'Spain', region: 'Community of Madrid', postcode: '28013', lat: 40.4168, lng: -3.7038, university: 'Universidad Complutense de Madrid' },
  { name: 'Barcelona', country: 'Spain', region: 'Catalonia', postcode: '08002', lat: 41.3874, lng: 2.1686, university: 'Universitat de Barcelona' },
  { name: 'Valencia', country: 'Spain', region: 'Valencian Community', postcode: '46002', lat: 39.4699, lng: -0.3763, university: 'Universitat de València' },
  { name: 'Seville', country: 'Spain', region: 'Andalusia', postcode: '41004', lat: 37.3891, lng: -5.9845, university: 'Universidad de Sevilla' },
  { name: 'Milan', country: 'Italy', region: 'Lombardy', postcode: '20121', lat: 45.4642, lng: 9.19, university: 'Politecnico di Milano' },
  { name: 'Rome', country: 'Italy', region: 'Lazio', postcode: '00184', lat: 41.9028, lng: 12.4964, university: 'Sapienza Università di Roma' },
  { name: 'Turin', country: 'Italy', region: 'Piedmont', postcode: '10121', lat: 45.0703, lng: 7.6869, university: 'Politecnico di Torino' },
  { name: 'Amsterdam', country: 'Netherlands', region: 'North Holland', postcode: '1012 JS', lat: 52.3676, lng: 4.9041, university: 'Universiteit van Amsterdam' },
  { name: 'Rotterdam', country: 'Netherlands', region: 'South Holland', postcode: '3011 AD', lat: 51.9244, lng: 4.4777, university: 'Erasmus Universiteit Rotterdam' },
  { name: 'Utrecht', country: 'Netherlands', region: 'Utrecht', postcode: '3511 LX', lat: 52.0907, lng: 5.1214, university: 'Universiteit Utrecht' },
  { name: 'Brussels', country: 'Belgium', region: 'Brussels-Capital Region', postcode: '1000', lat: 50.8503, lng: 4.3517, university: 'Université libre de Bruxelles' },
  { name: 'Antwerp', country: 'Belgium', region: 'Flanders', postcode: '2000', lat: 51.2194, lng: 4.4025, university: 'Universiteit Antwerpen', language: 'Dutch' },
  { name: 'Lisbon', country: 'Portugal', region: 'Lisbon', postcode: '1100-148', lat: 38.7223, lng: -9.1393, university: 'Universidade de Lisboa' },
  { name: 'Porto', country: 'Portugal', region: 'Porto', postcode: '4000-322', lat: 41.1579, lng: -8.6291, university: 'Universidade do Porto' },
  { name: 'Zurich', country: 'Switzerland', region: 'Canton of Zurich', postcode: '8001', lat: 47.3769, lng: 8.5417, university: 'ETH Zürich' },
  { name: 'Geneva', country: 'Switzerland', region: 'Canton of Geneva', postcode: '1204', lat: 46.2044, lng: 6.1432, university: 'Université de Genève', language: 'French' },
  { name: 'Dublin', country: 'Ireland', region: 'Leinster', postcode: 'D02 X285', lat: 53.3498, lng: -6.2603, university: 'Trinity College Dublin' },
  { name: 'Stockholm', country: 'Sweden', region: 'Stockholm County', postcode: '111 20', lat: 59.3293, lng: 18.0686, university: 'KTH Royal Institute of Technology' },
  { name: 'Copenhagen', country: 'Denmark', region: 'Capital Region of Denmark', postcode: '1050', lat: 55.6761, lng: 12.5683, university: 'University of Copenhagen' },
  { name: 'Warsaw', country: 'Poland', region: 'Masovian Voivodeship', postcode: '00-001', lat: 52.2297, lng: 21.0122, university: 'University of Warsaw' },
  { name: 'Kraków', country: 'Poland', region: 'Lesser Poland Voivodeship', postcode: '31-001', lat: 50.0647, lng: 19.945, university: 'Jagiellonian University' },
  { name: 'Vienna', country: 'Austria', region: 'Vienna', postcode: '1010', lat: 48.2082, lng: 16.3738, university: 'Universität Wien' },
  { name: 'Prague', country: 'Czechia', region: 'Prague', postcode: '110 00', lat: 50.0755, lng: 14.4378, university: 'Charles University' },
  { name: 'New York', country: 'United States', region: 'New York', postcode: '10007', lat: 40.7128, lng: -74.006, university: 'Columbia University' },
  { name: 'San Francisco', country: 'United States', region: 'California', postcode: '94103', lat: 37.7749, lng: -122.4194, university: 'San Francisco State University' },
  { name: 'Seattle', country: 'United States', region: 'Washington', postcode: '98101', lat: 47.6062, lng: -122.3321, university: 'University of Washington' },
  { name: 'Austin', country: 'United States', region: 'Texas', postcode: '78701', lat: 30.2672, lng: -97.7431, university: 'The University of Texas at Austin' },
  { name: 'Chicago', country: 'United States', region: 'Illinois', postcode: '60601', lat: 41.8781, lng: -87.6298, university: 'University of Chicago' },
  { name: 'Boston', country: 'United States', region: 'Massachusetts', postcode: '02108', lat: 42.3601, lng: -71.0589, university: 'Boston University' },
  { name: 'Denver', country: 'United States', region: 'Colorado', postcode: '80202', lat: 39.7392, lng: -104.9903, university: 'University of Denver' },
  { name: 'Atlanta', country: 'United States', region: 'Georgia', postcode: '30303', lat: 33.749, lng: -84.388, university: 'Georgia Institute of Technology' },
  { name: 'Toronto', country: 'Canada', region: 'Ontario', postcode: 'M5H 2N2', lat: 43.6532, lng: -79.3832, university: 'University of Toronto' },
  { name: 'Montreal', country: 'Canada', region: 'Quebec', postcode: 'H2Y 1C6', lat: 45.5017, lng: -73.5673, university: 'McGill University', language: 'French' },
  { name: 'Vancouver', country: 'Canada', region: 'British Columbia', postcode: 'V6B 1A1', lat: 49.2827, lng: -123.1207, university: 'University of British Columbia' },
] as const satisfies readonly City[];
