/** The searching and scoring filters of the API's older record that contract 1.2.0 added. */
export const SDK_FILTERS = [
  'stage',
  'name',
  'email',
  'summary_keywords',
  'experience_keywords',
  'education_keywords',
  'interests',
  'tags',
  'educations_duration_min',
  'educations_duration_max',
  'experience_location_geopoint',
  'experience_location_distance',
  'education_location_geopoint',
  'education_location_distance',
  'timestamp_start',
  'timestamp_end',
];
